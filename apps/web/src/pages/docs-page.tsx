import { BookOpen, Layers, Rocket, type LucideIcon } from 'lucide-react';
import { Card, PageContainer, PageHeader } from '../components/ui';
import { IconHeading } from '../components/icon-heading';

type DocCard = { title: string; icon: LucideIcon; intro: string; items: string[] };

/** SPEC §1: three cards. */
const DOCS: DocCard[] = [
  {
    title: 'Getting Started',
    icon: BookOpen,
    intro: 'Create your first agent in about ten minutes.',
    items: [
      'Sign up, then open the dashboard.',
      'Under API Keys, store a key for the LLM provider you plan to use (OpenAI, Claude, Groq, Gemini or Deepseek).',
      'Choose Create New Agent and pick RAG Agent, SQL Agent or Image Generation Agent.',
      'Follow the wizard: every step is saved as soon as you continue, so you can go back without losing work.',
      'On the last step, review the summary and start the build.',
    ],
  },
  {
    title: 'Features Overview',
    icon: Layers,
    intro: 'What each agent type can do and what you configure.',
    items: [
      'RAG agents answer from PDF, CSV, Excel or TXT files, or from Postgres, MySQL, SQLite and MongoDB, using an embedding model and a vector store (ChromaDB, Qdrant, Milvus or Pinecone).',
      'SQL agents answer analytical questions by running SQL over CSV or Excel uploads or over MySQL, Postgres and SQLite, with PandasAI, Vanna AI or SQL query chains.',
      'Both generate a Gradio or Streamlit interface and use the system prompt you write or pick from templates.',
      'The image generation agent starts with one button and needs a Gemini API key.',
    ],
  },
  {
    title: 'Deployment',
    icon: Rocket,
    intro: 'From a finished build to a running service.',
    items: [
      'When the build completes, choose Preview to try the agent in the browser.',
      'Choose Download Code to get the project as a zip: source, Dockerfile, compose file, .env example and CI/CD workflows.',
      'Copy the .env example to .env and fill in your keys; they are never written into the zip.',
      'Run docker compose up to start the agent locally, or push the project to a repository and let the included workflow build and ship the image.',
    ],
  },
];

export function DocsPage() {
  return (
    <PageContainer size="xl">
      <PageHeader
        title="Documentation"
        description="Everything you need to go from an empty account to a deployed AI agent."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        {DOCS.map((doc) => (
          <Card as="article" key={doc.title} className="flex flex-col">
            <IconHeading icon={doc.icon} title={doc.title} text={doc.intro} />
            <ol className="mt-4 list-decimal space-y-2 pl-5 text-sm text-slate-700 marker:text-indigo-700 dark:text-slate-200 dark:marker:text-indigo-300">
              {doc.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ol>
          </Card>
        ))}
      </div>
    </PageContainer>
  );
}
