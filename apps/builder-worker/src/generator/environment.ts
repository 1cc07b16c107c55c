import { DATABASE_SOURCE_CATALOG, SOURCE_TYPE_LABELS } from '@agentloom/contracts';
import { PROVIDERS, VECTOR_STORES } from './catalog';
import type { AgentManifest } from './manifest';

/** An environment variable the generated app reads. */
export interface EnvVariable {
  name: string;
  required: boolean;
  /** One line, for the README table and as a comment in .env.example. */
  purpose: string;
  /** An illustrative value, shown in a comment only (never a working credential). */
  example?: string;
}

const DATABASE_URL_EXAMPLES: Record<string, string> = Object.fromEntries(
  Object.entries(DATABASE_SOURCE_CATALOG).map(([type, spec]) => [type, spec.envExample]),
);

/** Every variable the project's code reads, in the order .env.example lists them. */
export function envVariables(manifest: AgentManifest): EnvVariable[] {
  return [
    ...modelVariables(manifest),
    ...vectorStoreVariables(manifest),
    ...localModelVariables(manifest),
    ...sourceVariables(manifest),
    ...appVariables(manifest),
  ];
}

/** The LLM's key, and OpenAI's when the embeddings are OpenAI's and the LLM is not. */
function modelVariables(manifest: AgentManifest): EnvVariable[] {
  const provider = PROVIDERS[manifest.llm.provider];
  const variables: EnvVariable[] = [
    {
      name: provider.apiKeyEnv,
      required: true,
      purpose: `API key for ${provider.label}, the LLM (${manifest.llm.model}).`,
    },
  ];
  const openAiEmbeddings = manifest.embedding && manifest.embedding.backend === 'openai';
  if (openAiEmbeddings && provider.apiKeyEnv !== 'OPENAI_API_KEY') {
    variables.push({
      name: 'OPENAI_API_KEY',
      required: true,
      purpose: `API key for OpenAI, the embedding model (${manifest.embedding?.model}).`,
    });
    variables.push({
      name: 'OPENAI_BASE_URL',
      required: false,
      purpose:
        "Send the embeddings' requests to this address instead of OpenAI's own (a proxy or a " +
        'compatible server); LLM_BASE_URL belongs to the LLM.',
    });
  }
  return variables;
}

function vectorStoreVariables({ vector_store: store }: AgentManifest): EnvVariable[] {
  if (!store) return [];
  const label = VECTOR_STORES[store.provider].label;
  const where: EnvVariable[] =
    store.provider === 'pinecone'
      ? [
          { name: 'PINECONE_API_KEY', required: true, purpose: 'API key for Pinecone.' },
          {
            name: 'PINECONE_CLOUD',
            required: false,
            purpose:
              'Cloud (aws, gcp or azure) for a new serverless index when the environment in ' +
              'agent.json does not name one. Default: aws.',
          },
        ]
      : [
          {
            name: 'VECTOR_STORE_URL',
            required: false,
            purpose:
              `${label}'s URL. Default: the URL in agent.json; docker-compose.yml points it at ` +
              'its own service.',
          },
          {
            name: 'VECTOR_STORE_API_KEY',
            required: false,
            purpose: `Only for a hosted ${label} that needs an API key or token.`,
          },
          {
            name: 'VECTOR_STORE_WAIT_SECONDS',
            required: false,
            purpose:
              `How long to wait for ${label} to answer at start-up (it may be starting). ` +
              'Default: 15; docker-compose.yml sets 180.',
          },
        ];
  return [
    ...where,
    {
      name: 'VECTOR_STORE',
      required: false,
      purpose:
        `Set to "memory" to search the vectors in memory instead of ${label}; they are ` +
        'kept in .memory-index/ (VECTOR_STORE_PATH) between starts.',
    },
  ];
}

/** Switches for what runs on the agent's own machine: a local embedding model, PandasAI's code. */
function localModelVariables(manifest: AgentManifest): EnvVariable[] {
  const variables: EnvVariable[] = [];
  if (manifest.embedding && manifest.embedding.backend !== 'openai') {
    variables.push({
      name: 'EMBEDDING_MODEL_PATH',
      required: false,
      purpose:
        'A folder holding the embedding model, to load it from disk instead of downloading ' +
        `${manifest.embedding.model} from Hugging Face (offline hosts): its ONNX port ` +
        `(${manifest.embedding.onnx?.model_id ?? manifest.embedding.model_id}), or with ` +
        `EMBEDDING_RUNTIME=torch the model itself (${manifest.embedding.model_id}).`,
    });
    variables.push({
      name: 'EMBEDDING_RUNTIME',
      required: false,
      purpose:
        'onnx (the default) runs the embedding model on the CPU with ONNX Runtime; torch runs ' +
        'it with PyTorch, on a GPU where there is one (install requirements-gpu.lock first).',
    });
  }
  if (manifest.sql?.framework === 'pandasai') {
    variables.push({
      name: 'PANDASAI_ALLOW_MODEL_CODE',
      required: false,
      purpose:
        'Set to "true" to let PandasAI run the Python code the model writes (off by default; ' +
        'read "Safety" in README.md first).',
    });
  }
  return variables;
}

function sourceVariables({ source, sources }: AgentManifest): EnvVariable[] {
  const tables = sources
    ? sources.filter((entry) => entry.kind === 'table')
    : [{ type: source.type, table: source.table, url_env: 'DATABASE_URL' }];
  return tables.flatMap((table) => {
    const example = DATABASE_URL_EXAMPLES[table.type];
    if (!example) return [];
    const label = SOURCE_TYPE_LABELS[table.type as keyof typeof SOURCE_TYPE_LABELS];
    // The table's name is the owner's: it stays in agent.json, never in .env.example.
    const which =
      tables.length > 1 ? ` whose url_env in agent.json is ${table.url_env ?? 'DATABASE_URL'}` : '';
    // In the container, 127.0.0.1 is the container itself (README.md, "Run it with Docker").
    const docker =
      table.type === 'sqlite' ? '' : ' Under docker compose, this machine is host.docker.internal.';
    return [
      {
        name: table.url_env ?? 'DATABASE_URL',
        required: true,
        purpose: `Connection URL of the ${label} source${which}. Use a read-only account.${docker}`,
        example,
      },
    ];
  });
}

/** Whether the embeddings go to the LLM's provider (OpenAI for both): one address for both. */
function openAiEmbeddingsToo(manifest: AgentManifest): boolean {
  return (
    manifest.llm.provider === 'openai' &&
    !!manifest.embedding &&
    manifest.embedding.backend === 'openai'
  );
}

function appVariables(manifest: AgentManifest): EnvVariable[] {
  const provider = PROVIDERS[manifest.llm.provider];
  return [
    {
      name: 'LLM_BASE_URL',
      required: false,
      purpose:
        `Send the model's requests to this address instead of ${provider.label}'s own (a proxy ` +
        'or a compatible server)' +
        (openAiEmbeddingsToo(manifest) ? ", the embeddings' too." : '.'),
    },
    {
      name: 'UI_PASSWORD',
      required: false,
      purpose: 'When set, the chat asks for this password before it answers.',
    },
    {
      name: 'UI_BIND_ADDRESS',
      required: false,
      purpose:
        'The host address docker compose publishes the chat on. Default: 127.0.0.1 (this ' +
        'machine only); 0.0.0.0 opens it to the network: set UI_PASSWORD first.',
    },
  ];
}

/** .env.example: every variable, empty. Placeholders only: real values go in .env. */
export function renderEnvExample(variables: readonly EnvVariable[]): string {
  const blocks = variables.map((variable) => {
    const lines = [`# ${variable.required ? '' : '(optional) '}${variable.purpose}`];
    if (variable.example) lines.push(`# Example: ${variable.example}`);
    lines.push(`${variable.name}=`);
    return lines.join('\n');
  });
  const header = [
    '# Copy this file to .env and fill in the values. Never commit .env.',
    '# An empty value counts as unset.',
  ].join('\n');
  return `${[header, ...blocks].join('\n\n')}\n`;
}
