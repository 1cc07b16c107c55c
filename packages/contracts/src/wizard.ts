import { z } from 'zod';
import { zText } from './text';
import {
  DEFAULT_DISTANCE_METRIC,
  DISTANCE_METRICS,
  EMBEDDING_MODELS,
  LLM_PROVIDERS,
  RAG_SOURCE_TYPES,
  SQL_FRAMEWORKS,
  SQL_SOURCE_TYPES,
  UI_FRAMEWORKS,
  VECTOR_STORES,
  type TAgentType,
} from './enums';
import { API_KEY_MIN_LENGTH } from './api-keys';
import { routePath } from './routes';
import { DATABASE_SOURCE_TYPES } from './sources';
import { LOCAL_VECTOR_STORES } from './vector-store-catalog';

/**
 * The wizard calls' paths (docs/product.md#the-calls-behind-the-screens): each step a form-encoded
 * POST (the uploads multipart) whose body is the step's schema below. The gateway's controllers,
 * the web app, test-kit and scripts all read these.
 */
export const WIZARD_ROUTES = {
  rag: {
    source: '/rag/api/source',
    upload: '/rag/api/source/upload',
    database: '/rag/api/source/db',
    embedding: '/rag/api/embeddings/model',
    vectorDb: '/rag/api/vectordb',
    pinecone: '/rag/api/vectordb/credentials/remote',
    localVectorDb: '/rag/api/vectordb/credentials/local',
    provider: '/rag/api/llm/provider',
    credentials: '/rag/api/llm/credentials',
    systemPrompt: '/rag/api/system-prompt',
    ui: '/rag/api/ui',
  },
  sql: {
    source: '/sql/config/source',
    upload: '/sql/config/source-details',
    database: '/sql/config/source-details/db',
    provider: '/sql/config/llm',
    key: '/sql/config/llm-key',
    model: '/sql/config/model',
    systemPrompt: '/sql/config/system-prompt',
    framework: '/sql/config/framework',
    ui: '/sql/config/ui',
  },
  /** JSON: does the provider take this key, and which models does it serve (TKeyCheckResult). */
  keyCheck: '/llm/keys/check',
  /** The first rows of the uploaded source (TSourceSample). */
  sourceSample: '/wizard/:sessionId/source/sample',
  /** JSON: the tables of the database the source step names (TSourceTables). */
  sourceTables: '/wizard/:sessionId/source/tables',
} as const;

/** A wizard step's path by its name in WIZARD_ROUTES, for code that walks the steps by name. */
export function wizardRoute(kind: TAgentType, step: string): string {
  const routes: Readonly<Record<string, string>> = WIZARD_ROUTES[kind];
  const path = routes[step];
  if (!path) throw new Error(`The ${kind} wizard has no step "${step}".`);
  return path;
}

export const wizardPaths = {
  sourceSample: (sessionId: string) => routePath(WIZARD_ROUTES.sourceSample, { sessionId }),
  sourceTables: (sessionId: string) => routePath(WIZARD_ROUTES.sourceTables, { sessionId }),
};

/**
 * Request bodies of the wizard calls. They arrive form-encoded (or
 * multipart), so every field is a string; empty fields count as missing. The messages of
 * docs/product.md#validation-messages are kept verbatim: the web app shows them as they are.
 */

export const NO_FILE_SELECTED = 'No file selected';
export const RAG_DB_FIELDS_REQUIRED = 'Please fill out URI, database name, and table/collection.';
export const SQL_DB_FIELDS_REQUIRED = 'All DB fields are required.';
export const PINECONE_FIELDS_REQUIRED = 'Please provide all Pinecone credentials.';
export const LOCAL_VECTOR_DB_FIELDS_REQUIRED = 'Please fill local DB settings.';
export const LLM_FIELDS_REQUIRED = 'API Key and model selection are required.';
export const SYSTEM_PROMPT_REQUIRED = 'Please write or select a system prompt.';
export const SQL_FRAMEWORK_REQUIRED = 'Please select a SQL framework.';
export const SESSION_ID_REQUIRED = 'session_id is required.';

export const SYSTEM_PROMPT_MAX_LENGTH = 8000;

/** A text field: trimmed, and '' is the same as absent. */
const text = (max = 2000) =>
  zText()
    .trim()
    .max(max, { error: `must be at most ${max} characters.` })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** A choice from a fixed list, matched case-insensitively and answered in its canonical spelling. */
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  zText()
    .trim()
    .optional()
    .transform((value) =>
      value === '' || value === undefined
        ? undefined
        : (values.find((known) => known.toLowerCase() === value.toLowerCase()) ?? value),
    )
    .pipe(z.enum(values, { error: `must be one of: ${values.join(', ')}.` }).optional());

const sessionId = zText({ error: SESSION_ID_REQUIRED })
  .trim()
  .min(1, { error: SESSION_ID_REQUIRED });

/**
 * A form whose listed fields must all be present, answered with one message for the group (the
 * wizard shows a single sentence, not one per field).
 */
function form<S extends z.ZodRawShape, K extends keyof S & string>(
  shape: S,
  required: readonly K[],
  message: string,
) {
  return z.object({ session_id: sessionId, ...shape }).check((ctx) => {
    const value = ctx.value as Record<string, unknown>;
    if (required.some((key) => value[key] === undefined)) {
      ctx.issues.push({ code: 'custom', message, input: ctx.value });
    }
  }) as unknown as z.ZodType<FormOutput<z.output<z.ZodObject<S>>, K>, z.input<z.ZodObject<S>>>;
}

/** The parsed form: the required fields are no longer optional. */
type FormOutput<O, K extends PropertyKey> = { session_id: string } & Omit<O, K> & {
    [P in K & keyof O]-?: NonNullable<O[P]>;
  };

const required = (field: string) => `${field} is required.`;

/** A form with one choice from a fixed list (a source type, a model, a UI…). */
const oneChoice = <F extends string, T extends readonly [string, ...string[]]>(
  field: F,
  values: T,
  message = required(field),
) =>
  form({ [field]: choice(values) } as { [P in F]: ReturnType<typeof choice<T>> }, [field], message);

// ---- RAG ----

export const ZRagSourceRequest = oneChoice('source_type', RAG_SOURCE_TYPES);
export type TRagSourceRequest = z.infer<typeof ZRagSourceRequest>;

export const ZSessionOnlyRequest = z.object({ session_id: sessionId });
export type TSessionOnlyRequest = z.infer<typeof ZSessionOnlyRequest>;

export const ZRagDatabaseSourceRequest = form(
  {
    source_type: choice(DATABASE_SOURCE_TYPES),
    uri: text(2000),
    database: text(128),
    collection_or_table: text(256),
  },
  ['source_type', 'uri', 'database', 'collection_or_table'],
  RAG_DB_FIELDS_REQUIRED,
);
export type TRagDatabaseSourceRequest = z.infer<typeof ZRagDatabaseSourceRequest>;

export const ZEmbeddingModelRequest = oneChoice('model_name', EMBEDDING_MODELS);
export type TEmbeddingModelRequest = z.infer<typeof ZEmbeddingModelRequest>;

export const ZVectorDbRequest = oneChoice('vector_db', VECTOR_STORES);
export type TVectorDbRequest = z.infer<typeof ZVectorDbRequest>;

export const ZPineconeCredentialsRequest = form(
  {
    api_key: text(512),
    environment: text(64),
    index_name: text(64),
  },
  ['api_key', 'environment', 'index_name'],
  PINECONE_FIELDS_REQUIRED,
);
export type TPineconeCredentialsRequest = z.infer<typeof ZPineconeCredentialsRequest>;

export const ZLocalVectorDbRequest = form(
  {
    vector_db: choice(LOCAL_VECTOR_STORES),
    url: text(2000).pipe(
      z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// URL.' }).optional(),
    ),
    // Left empty, the embedding model's own size is used (the gateway knows the model).
    dimensions: text(8).transform((value, ctx) => {
      if (value === undefined) return undefined;
      const dimensions = Number(value);
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65536) {
        ctx.issues.push({
          code: 'custom',
          message: 'must be a whole number between 1 and 65536.',
          input: value,
        });
        return z.NEVER;
      }
      return dimensions;
    }),
    distance_metric: choice(DISTANCE_METRICS).transform(
      (value) => value ?? DEFAULT_DISTANCE_METRIC,
    ),
  },
  ['vector_db', 'url'],
  LOCAL_VECTOR_DB_FIELDS_REQUIRED,
);
export type TLocalVectorDbRequest = z.infer<typeof ZLocalVectorDbRequest>;

export const ZLlmProviderRequest = oneChoice('provider', LLM_PROVIDERS);
export type TLlmProviderRequest = z.infer<typeof ZLlmProviderRequest>;

/** An LLM key typed into the wizard, or `api_key_id` naming a key already in the user's vault. */
const llmKeyFields = { api_key: text(512), api_key_id: text(64) };

export const ZLlmCredentialsRequest = z
  .object({ session_id: sessionId, ...llmKeyFields, model_name: text(128) })
  .check((ctx) => {
    const { api_key, api_key_id, model_name } = ctx.value;
    if ((!api_key && !api_key_id) || !model_name) {
      ctx.issues.push({ code: 'custom', message: LLM_FIELDS_REQUIRED, input: ctx.value });
    }
  });
export type TLlmCredentialsRequest = z.infer<typeof ZLlmCredentialsRequest>;

export const ZSystemPromptRequest = form(
  { prompt: text(SYSTEM_PROMPT_MAX_LENGTH) },
  ['prompt'],
  SYSTEM_PROMPT_REQUIRED,
);
export type TSystemPromptRequest = z.infer<typeof ZSystemPromptRequest>;

export const ZUiRequest = oneChoice('ui', UI_FRAMEWORKS);
export type TUiRequest = z.infer<typeof ZUiRequest>;

// ---- SQL ----

export const ZSqlSourceRequest = oneChoice('source_type', SQL_SOURCE_TYPES);
export type TSqlSourceRequest = z.infer<typeof ZSqlSourceRequest>;

export const ZSqlDatabaseSourceRequest = form(
  { db_uri: text(2000), db_name: text(128), table_name: text(256) },
  ['db_uri', 'db_name', 'table_name'],
  SQL_DB_FIELDS_REQUIRED,
);
export type TSqlDatabaseSourceRequest = z.infer<typeof ZSqlDatabaseSourceRequest>;

export const ZSqlLlmProviderRequest = oneChoice('llm_provider', LLM_PROVIDERS);
export type TSqlLlmProviderRequest = z.infer<typeof ZSqlLlmProviderRequest>;

export const ZSqlLlmKeyRequest = z
  .object({ session_id: sessionId, ...llmKeyFields })
  .check((ctx) => {
    if (!ctx.value.api_key && !ctx.value.api_key_id) {
      ctx.issues.push({ code: 'custom', message: LLM_FIELDS_REQUIRED, input: ctx.value });
    }
  });
export type TSqlLlmKeyRequest = z.infer<typeof ZSqlLlmKeyRequest>;

export const ZSqlModelRequest = form({ model: text(128) }, ['model'], LLM_FIELDS_REQUIRED);
export type TSqlModelRequest = z.infer<typeof ZSqlModelRequest>;

export const ZSqlFrameworkRequest = oneChoice('framework', SQL_FRAMEWORKS, SQL_FRAMEWORK_REQUIRED);
export type TSqlFrameworkRequest = z.infer<typeof ZSqlFrameworkRequest>;

/** The two kinds of data a SQL framework reads, and how the app says which one it needs. */
const TABLE_FILE = {
  sources: ['csv', 'excel'],
  needs: 'a CSV or Excel file',
  note: 'Needs a CSV or Excel source',
} as const;
const DATABASE = {
  sources: ['mysql', 'postgres', 'sqlite'],
  needs: 'a MySQL, Postgres or SQLite database',
  note: 'Needs a database source',
} as const;

/**
 * What each SQL framework needs: the source types it can serve, and the words the gateway's
 * refusal (`needs`) and the framework card (`note`) use when the chosen source does not fit.
 */
export const SQL_FRAMEWORK_NEEDS = {
  pandasai: TABLE_FILE,
  vannaai_file: TABLE_FILE,
  sql_query_file: TABLE_FILE,
  vannaai_db: DATABASE,
  sql_query_db: DATABASE,
} as const satisfies Record<
  (typeof SQL_FRAMEWORKS)[number],
  { sources: readonly (typeof SQL_SOURCE_TYPES)[number][]; needs: string; note: string }
>;

// ---- field rules past the form's shape ----
// The gateway refuses what breaks them (400, in these words); the web app checks a typed LLM key
// with the same rule before it asks the provider about it.

export const LLM_KEY_SHAPE_PROBLEM = `An API key has at least ${API_KEY_MIN_LENGTH} characters and no spaces. Copy the whole key from your provider's site.`;

/** What is wrong with a typed LLM key before any provider is asked, or null. */
export function llmKeyShapeProblem(apiKey: string): string | null {
  return apiKey.length < API_KEY_MIN_LENGTH || /\s/.test(apiKey) ? LLM_KEY_SHAPE_PROBLEM : null;
}

/** Pinecone's own naming rules, first broken one first, the field named: or null. */
export function pineconeFieldsProblem(fields: {
  api_key: string;
  environment: string;
  index_name: string;
}): string | null {
  if (!/^[a-z0-9][a-z0-9-]{0,44}$/.test(fields.index_name)) {
    return 'index_name: Pinecone index names use lower-case letters, digits and hyphens (at most 45).';
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(fields.environment)) {
    return 'environment: use the Pinecone environment name, e.g. us-west1-gcp.';
  }
  if (/\s/.test(fields.api_key)) return 'api_key: the key must not contain spaces.';
  return null;
}
