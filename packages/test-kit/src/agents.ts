import { WIZARD_ROUTES } from '@agentloom/contracts';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestUser } from './accounts';
import { apiCall, expectStatus, rotation, type Gateway } from './http';

/**
 * An agent of each kind configured through the wizard's own calls
 * (docs/product.md#the-calls-behind-the-screens), step by step as the web app sends them, to a
 * complete configuration ready to build. The defaults are a working choice at each step; a test
 * overrides what it asserts on.
 */

/** The LLM key the wizard flows enter unless a test brings its own. */
export const WIZARD_LLM_KEY = 'sk-proj-WizardFlowKey-1234567890abcdEFGH';

/** A file to upload: a path on disk, or a name and the content. */
export type Upload = string | { name: string; content: string | Uint8Array; type?: string };

/** A table (or collection) of a source database, as the wizard's database step names it. */
export interface DatabaseTable {
  /** The source type: postgres, mysql, sqlite, mongodb. */
  type: string;
  uri: string;
  database: string;
  table: string;
}

interface CommonOptions {
  /** The agent's name; a unique one by default. */
  name?: string;
  prompt?: string;
  ui?: 'gradio' | 'streamlit';
}

export type RagAgentOptions = CommonOptions &
  ({ file: Upload; sourceType?: string } | { database: DatabaseTable }) & {
    embeddingModel?: string;
    /** The vector store step's fields (`vectordb/credentials/local`). */
    vectorStore?: { vector_db: string; url: string } & Record<string, string>;
    llm?: { provider: string; api_key: string; model_name: string };
  };

export type SqlAgentOptions = CommonOptions &
  ({ file: Upload; sourceType?: string } | { database: DatabaseTable }) & {
    /** By default the file or database framework, whichever the source needs. */
    framework?: string;
    llm?: { llm_provider: string; api_key: string; model: string };
  };

const uniqueName = (kind: string) => `${kind} ${randomBytes(4).toString('hex')}`;

/** What a browser sends as the type of each file the wizards take. */
const MEDIA_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.pdf': 'application/pdf',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The upload as a multipart body for `session_id`, under the field `file`. */
async function uploadBody(sessionId: string, upload: Upload): Promise<FormData> {
  const file =
    typeof upload === 'string'
      ? { name: path.basename(upload), content: await readFile(upload), type: undefined }
      : upload;
  const type = file.type ?? MEDIA_TYPES[path.extname(file.name)] ?? 'application/octet-stream';
  const body = new FormData();
  body.set('session_id', sessionId);
  body.set('file', new Blob([file.content], { type }), file.name);
  return body;
}

/** The source type of a file the wizard is told before the upload: its extension. */
const typeOfFile = (upload: Upload) =>
  path.extname(typeof upload === 'string' ? upload : upload.name).slice(1);

/** One wizard of one agent: the agent created, then its steps posted in turn. */
async function wizard(gateway: Gateway, user: TestUser, name: string, agentType: 'rag' | 'sql') {
  const next = rotation(gateway);
  const created = expectStatus(
    await apiCall(next(), '/pipelines', {
      token: user.token,
      json: { name, agent_type: agentType },
    }),
    201,
    'create agent',
  );
  const sessionId = created.body.session_id as string;
  return {
    sessionId,
    async step(route: string, fields: Record<string, string>) {
      const form = { session_id: sessionId, ...fields };
      expectStatus(await apiCall(next(), route, { token: user.token, form }), 200, route);
    },
    async upload(route: string, file: Upload) {
      const body = await uploadBody(sessionId, file);
      expectStatus(await apiCall(next(), route, { token: user.token, body }), 200, route);
    },
  };
}

/** A RAG agent over an uploaded file or a database table; its session id. */
export async function configureRagAgent(
  gateway: Gateway,
  user: TestUser,
  options: RagAgentOptions,
): Promise<string> {
  const flow = await wizard(gateway, user, options.name ?? uniqueName('RAG'), 'rag');
  if ('file' in options) {
    const sourceType = options.sourceType ?? typeOfFile(options.file);
    await flow.step(WIZARD_ROUTES.rag.source, { source_type: sourceType });
    await flow.upload(WIZARD_ROUTES.rag.upload, options.file);
  } else {
    const { type, uri, database, table } = options.database;
    await flow.step(WIZARD_ROUTES.rag.source, { source_type: type });
    await flow.step(WIZARD_ROUTES.rag.database, {
      source_type: type,
      uri,
      database,
      collection_or_table: table,
    });
  }
  await flow.step(WIZARD_ROUTES.rag.embedding, {
    model_name: options.embeddingModel ?? 'all-MiniLM-L6-v2',
  });
  const store = options.vectorStore ?? { vector_db: 'chromadb', url: 'http://chroma:8000' };
  await flow.step(WIZARD_ROUTES.rag.vectorDb, { vector_db: store.vector_db });
  await flow.step(WIZARD_ROUTES.rag.localVectorDb, store);
  const llm = options.llm ?? {
    provider: 'openai',
    api_key: WIZARD_LLM_KEY,
    model_name: 'gpt-4o-mini',
  };
  await flow.step(WIZARD_ROUTES.rag.provider, { provider: llm.provider });
  await flow.step(WIZARD_ROUTES.rag.credentials, {
    api_key: llm.api_key,
    model_name: llm.model_name,
  });
  await flow.step(WIZARD_ROUTES.rag.systemPrompt, {
    prompt: options.prompt ?? 'Answer from the sales data only.',
  });
  await flow.step(WIZARD_ROUTES.rag.ui, { ui: options.ui ?? 'gradio' });
  return flow.sessionId;
}

/** A SQL analyst over an uploaded file or a database table; its session id. */
export async function configureSqlAgent(
  gateway: Gateway,
  user: TestUser,
  options: SqlAgentOptions,
): Promise<string> {
  const flow = await wizard(gateway, user, options.name ?? uniqueName('Analyst'), 'sql');
  if ('file' in options) {
    const sourceType = options.sourceType ?? typeOfFile(options.file);
    await flow.step(WIZARD_ROUTES.sql.source, { source_type: sourceType });
    await flow.upload(WIZARD_ROUTES.sql.upload, options.file);
  } else {
    const { type, uri, database, table } = options.database;
    await flow.step(WIZARD_ROUTES.sql.source, { source_type: type });
    await flow.step(WIZARD_ROUTES.sql.database, {
      db_uri: uri,
      db_name: database,
      table_name: table,
    });
  }
  const framework = options.framework ?? ('file' in options ? 'sql_query_file' : 'sql_query_db');
  await flow.step(WIZARD_ROUTES.sql.framework, { framework });
  const llm = options.llm ?? {
    llm_provider: 'Deepseek',
    api_key: WIZARD_LLM_KEY,
    model: 'deepseek-chat',
  };
  await flow.step(WIZARD_ROUTES.sql.provider, { llm_provider: llm.llm_provider });
  await flow.step(WIZARD_ROUTES.sql.key, { api_key: llm.api_key });
  await flow.step(WIZARD_ROUTES.sql.model, { model: llm.model });
  await flow.step(WIZARD_ROUTES.sql.systemPrompt, {
    prompt: options.prompt ?? 'Answer with numbers.',
  });
  await flow.step(WIZARD_ROUTES.sql.ui, { ui: options.ui ?? 'streamlit' });
  return flow.sessionId;
}

/** The image agent's page, launched for `user` (POST /img/launch-streamlit-app); its URL. */
export async function launchImageAgent(gateway: Gateway, user: TestUser): Promise<string> {
  const launched = await apiCall(rotation(gateway)(), '/img/launch-streamlit-app', {
    token: user.token,
    form: {},
  });
  return expectStatus(launched, 200, 'launch image agent').body.url as string;
}
