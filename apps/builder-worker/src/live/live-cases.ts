/**
 * What the live check asks each scenario's project (keyed by the scenario's title in
 * testing/project-scenarios.ts), what it must answer, and which real service it runs against.
 * A case without a question stops after its tests, for the reason given.
 */
export interface LiveCase {
  kind: 'rag' | 'sql';
  provider: 'openai' | 'claude' | 'groq' | 'gemini' | 'deepseek';
  keyEnv: string;
  store?: 'chromadb' | 'qdrant' | 'milvus' | 'pinecone';
  /** DATABASE_URL; `{dir}` is the project folder. */
  databaseUrl?: string;
  /** A SQLite database to create in the project before the question (path from the project). */
  sqlite?: string;
  question?: string;
  expect?: RegExp;
  /** The answer's sources must include this. */
  source?: RegExp;
  /** How many sources the answer lists: only the passages it cites (the stand-in cites [1]). */
  sourceCount?: number;
  /** The answer is PandasAI's "switched off" message. */
  switchedOff?: boolean;
  /** Further questions asked after the first, each with settings of its own. */
  followUps?: FollowUp[];
  /** Drive this project's chat in Chromium too. */
  ui?: 'streamlit' | 'gradio';
  /** Why there is no question. */
  skipped?: string;
  /** Index again: nothing changed, then a source added, then removed (live/reindex.ts). */
  reindex?: boolean;
  /**
   * A paraphrase of the project's first curated question: answered with its curated text, the
   * model not called, from the command line and (with `ui`) in the chat (live/curated-check.ts).
   */
  curated?: string;
}

export interface FollowUp {
  why: string;
  env: Record<string, string>;
  question: string;
  expect: RegExp;
  /** The answer names a chart file, which must exist under exports/charts. */
  chart?: boolean;
}

/**
 * With model code allowed (PANDASAI_ALLOW_MODEL_CODE=true), the real PandasAI runs the code the
 * model wrote: a count of the rows, and a chart saved as a PNG of its own.
 */
const pandasaiOn = (rows: number): FollowUp[] => [
  {
    why: 'model code allowed',
    env: { PANDASAI_ALLOW_MODEL_CODE: 'true' },
    question: 'How many sales are there?',
    expect: new RegExp(`^${rows}$`),
  },
  {
    why: 'model code allowed',
    env: { PANDASAI_ALLOW_MODEL_CODE: 'true' },
    question: 'Draw a bar chart of the amounts',
    expect: /^Here is the chart\./,
    chart: true,
  },
];

/** The start of the PandasAI engine's SWITCHED_OFF answer (templates/sql/engines/pandasai.py). */
export const SWITCHED_OFF_START = 'PandasAI is switched off in this agent';

const POSTGRES = 'postgresql://agentloom_live_reader:reader-pass@127.0.0.1:5432/agentloom_live';
const MARIADB = 'mysql://agentloom_live_reader:reader-pass@127.0.0.1:3306/agentloom_live';
const KEYS = {
  openai: 'OPENAI_API_KEY',
  claude: 'ANTHROPIC_API_KEY',
  groq: 'GROQ_API_KEY',
  gemini: 'GEMINI_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
} as const;

const rag = (
  provider: LiveCase['provider'],
  rest: Omit<LiveCase, 'kind' | 'provider' | 'keyEnv'>,
) => ({ kind: 'rag', provider, keyEnv: KEYS[provider], ...rest }) satisfies LiveCase;
const sql = (
  provider: LiveCase['provider'],
  rest: Omit<LiveCase, 'kind' | 'provider' | 'keyEnv'>,
) => ({ kind: 'sql', provider, keyEnv: KEYS[provider], ...rest }) satisfies LiveCase;

const countOf = (rows: number) => new RegExp(`The answer is ${rows}\\.`);
/**
 * Other words for "How do I return a product I bought?": all-MiniLM-L6-v2 rates them 0.90
 * apart (0.94 with BGE's query instruction), above the 0.75 and 0.88 thresholds; by words, two
 * of three content words are shared, above 0.6.
 */
const CURATED_PARAPHRASE = 'How can I return something I bought?';

export const LIVE_CASES: Record<string, LiveCase> = {
  'RAG csv + chromadb + streamlit + MiniLM-L6 + openai, with chunks': rag('openai', {
    store: 'chromadb',
    question: 'Which sale was a bulk order for the Oslo office?',
    // Real all-MiniLM-L6-v2 embeddings must rank the Oslo row (row 4) first.
    expect: /According to \[1\]: West; 12; bulk order for the Oslo office/,
    source: /^- sales\\?\.csv, row 4$/m,
    ui: 'streamlit',
    curated: CURATED_PARAPHRASE,
  }),
  'RAG pdf + qdrant + gradio + bge + claude, read from the file': rag('claude', {
    store: 'qdrant',
    question: 'How long does shipping to Norway take?',
    expect: /According to \[1\]: [\s\S]*Norway/,
    sourceCount: 1,
    ui: 'gradio',
    curated: CURATED_PARAPHRASE,
  }),
  'RAG excel + milvus + streamlit + e5 + groq': rag('groq', {
    store: 'milvus',
    question: 'Which sale had a refund requested?',
    expect: /According to \[1\]: [\s\S]*refund requested/,
  }),
  'RAG text + pinecone + gradio + ada-002 + gemini, with chunks': rag('gemini', {
    store: 'pinecone',
    question: 'How long does shipping to Norway take?',
    expect: /According to \[1\]: [\s\S]*Norway/,
  }),
  'RAG text + pdf + chromadb + gradio + 3-small + openai, several sources with chunks': rag(
    'openai',
    {
      store: 'chromadb',
      question: 'How long does shipping to Norway take?',
      expect: /According to \[1\]: [\s\S]*Norway/,
      reindex: true,
    },
  ),
  'RAG postgres + qdrant + streamlit + t5 + deepseek, with chunks': rag('deepseek', {
    store: 'qdrant',
    skipped: "sentence-t5-base's weights cannot be downloaded here (no model hub)",
  }),
  'RAG mongo + chromadb + gradio + MiniLM-L12 + claude': rag('claude', {
    store: 'chromadb',
    skipped: 'no MongoDB server runs on this machine',
  }),
  'RAG mysql + milvus + gradio + hostile name, prompt and table': rag('openai', {
    store: 'milvus',
    databaseUrl: MARIADB,
    question: 'Which order was refunded?',
    expect: /According to \[1\]: [\s\S]*desk[\s\S]*refunded/,
  }),
  'SQL sql_query_file + csv + streamlit': sql('openai', {
    question: 'How many sales are there?',
    expect: countOf(4),
  }),
  'SQL sql_query_file + excel + gradio': sql('claude', {
    question: 'How many sales are there?',
    expect: countOf(3),
    curated: CURATED_PARAPHRASE,
  }),
  'SQL pandasai + csv + streamlit': sql('gemini', {
    question: 'How many sales are there?',
    expect: new RegExp(SWITCHED_OFF_START),
    switchedOff: true,
    followUps: pandasaiOn(4),
  }),
  'SQL pandasai + excel + gradio': sql('openai', {
    question: 'How many sales are there?',
    expect: new RegExp(SWITCHED_OFF_START),
    switchedOff: true,
    followUps: pandasaiOn(3),
  }),
  'SQL vannaai_file + csv + gradio': sql('groq', {
    question: 'How many sales are there?',
    expect: countOf(4),
  }),
  'SQL vannaai_db + postgres + streamlit': sql('deepseek', {
    databaseUrl: POSTGRES,
    question: 'How many sales are there?',
    expect: countOf(3),
  }),
  'SQL sql_query_db + mysql + gradio': sql('openai', {
    databaseUrl: MARIADB,
    question: 'How many sales are there?',
    expect: countOf(3),
  }),
  'SQL sql_query_db + sqlite + streamlit + hostile name, prompt and table': sql('claude', {
    databaseUrl: 'sqlite:///data/live.db',
    sqlite: 'data/live.db',
    question: 'How many orders are there?',
    expect: countOf(2),
  }),
};
