import {
  BarChart3,
  Database,
  FlaskConical,
  KeyRound,
  MonitorPlay,
  MousePointerClick,
  PackageCheck,
  Rocket,
  SlidersHorizontal,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

/** docs/product.md#public-pages: the hero phrase rotates through these, every HERO_ROTATION_MS. */
export const HERO_PHRASES = [
  'RAG Agents',
  'SQL Agents',
  'No-Code AI',
  'Image Gen Agents',
  'Smart Agents',
] as const;
export const HERO_ROTATION_MS = 3000;

export type Feature = { title: string; summary: string; details: string[]; icon: LucideIcon };

/**
 * docs/product.md#public-pages: the six features, shown on the Features page and (shorter) on the
 * landing page.
 */
export const FEATURES: Feature[] = [
  {
    title: 'RAG Builder',
    icon: Database,
    summary:
      'Turn PDFs, spreadsheets, text files or database tables into a chatbot that answers from your own data.',
    details: [
      'Upload PDF, CSV, Excel or TXT files, or connect Postgres, MySQL, SQLite and MongoDB',
      'Six embedding models, from OpenAI ada-002 to compact open models such as bge-small-en',
      'ChromaDB, Qdrant, Milvus or Pinecone as the vector store',
    ],
  },
  {
    title: 'SQL Builder',
    icon: BarChart3,
    summary:
      'Ask questions in plain English and get answers computed by real SQL over your files or databases.',
    details: [
      'Works over CSV and Excel uploads or live MySQL, Postgres and SQLite databases',
      'Pick the query engine that suits you: PandasAI, Vanna AI or plain SQL query chains',
      'Every answer is traceable to the query that produced it',
    ],
  },
  {
    title: 'Visual Pipeline Builder',
    icon: Workflow,
    summary:
      'A guided, step-by-step wizard replaces boilerplate: each step saves as you go, so nothing is lost.',
    details: [
      'Nine clear steps for RAG agents, eight for SQL agents',
      'A progress bar and step badge show exactly where you are',
      'Go back at any time to review a choice before you build',
    ],
  },
  {
    title: 'One-Click Deployment',
    icon: Rocket,
    summary:
      'Build produces a complete, production-ready project: container files, environment files and CI/CD workflows.',
    details: [
      'Download the whole project as a single zip',
      'Dockerfile and compose file included, ready for any container host',
      'GitHub Actions workflows to test and ship on every push',
    ],
  },
  {
    title: 'API Key Vault',
    icon: KeyRound,
    summary:
      'Store your OpenAI, Claude, Groq, Gemini and Deepseek keys once, encrypted, and reuse them in every agent.',
    details: [
      'Keys are encrypted at rest and masked everywhere they are shown',
      'Reveal or copy a key only when you need it',
      'Remove a key at any time; your agents stay yours',
    ],
  },
  {
    title: 'Live Preview',
    icon: MonitorPlay,
    summary:
      'Try your agent in an embedded Gradio or Streamlit app before you download a single file.',
    details: [
      'Chat with the agent right inside the dashboard',
      'Switch between Gradio and Streamlit interfaces',
      'Iterate on prompts and models until the answers are right',
    ],
  },
];

/** How it works: four steps, in order. */
export const HOW_IT_WORKS: { title: string; text: string; icon: LucideIcon }[] = [
  {
    title: 'Choose agent type',
    icon: MousePointerClick,
    text: 'Pick a RAG agent for answers from documents, a SQL agent for analytics, or launch the image generation agent.',
  },
  {
    title: 'Configure pipeline',
    icon: SlidersHorizontal,
    text: 'Connect your data, choose an LLM provider and model with your own API key, write a system prompt and pick Gradio or Streamlit.',
  },
  {
    title: 'Preview and test',
    icon: FlaskConical,
    text: 'Watch the build stages live, then chat with your agent in an embedded preview and refine it until it behaves.',
  },
  {
    title: 'Build and deploy',
    icon: PackageCheck,
    text: 'Download a complete project with container files, environment files and CI/CD workflows, and ship it anywhere.',
  },
];
