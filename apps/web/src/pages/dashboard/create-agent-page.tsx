import {
  ArrowLeft,
  ArrowRight,
  BarChart3,
  Database,
  ImageIcon,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClasses, PageContainer, PageHeader } from '../../components/ui';
import { IconHeading } from '../../components/icon-heading';

type AgentKind = { title: string; to: string; icon: LucideIcon; text: string; points: string[] };

/** SPEC §2 Create agent: three cards. */
const KINDS: AgentKind[] = [
  {
    title: 'RAG Agent',
    to: '/pipeline/rag',
    icon: Database,
    text: 'A semantic chatbot that answers from your files or database tables using embeddings and a vector store.',
    points: ['PDF, CSV, Excel, TXT or a database', 'Six embedding models', 'Four vector stores'],
  },
  {
    title: 'SQL Agent',
    to: '/pipeline/sql',
    icon: BarChart3,
    text: 'An analytical agent that answers questions by running SQL over your spreadsheets or databases.',
    points: [
      'CSV, Excel, MySQL, Postgres or SQLite',
      'PandasAI, Vanna AI or SQL chains',
      'Answers backed by queries',
    ],
  },
  {
    title: 'Image Generation Agent',
    to: '/build/image',
    icon: ImageIcon,
    text: 'A ready-made app that creates and edits images from text descriptions, started with one button.',
    points: ['Gemini-powered', 'Generate, download and edit', 'Launches in seconds'],
  },
];

export function CreateAgentPage() {
  return (
    <PageContainer size="xl">
      <Link to="/dashboard" className={buttonClasses('ghost', 'md', '-ml-2 mb-4')}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to Dashboard
      </Link>
      <PageHeader
        title="Create a new agent"
        description="Choose the kind of agent to build. You can come back and build another at any time."
      />
      <ul className="grid gap-6 md:grid-cols-3">
        {KINDS.map((kind) => (
          <li key={kind.to}>
            <Link
              to={kind.to}
              className="group flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700 dark:focus-visible:ring-offset-slate-950"
            >
              <IconHeading
                icon={kind.icon}
                title={kind.title}
                text={kind.text}
                tileClassName="group-hover:bg-indigo-600 group-hover:text-white"
              />
              <ul className="mt-4 space-y-1 text-sm text-slate-700 dark:text-slate-200">
                {kind.points.map((point) => (
                  <li key={point}>• {point}</li>
                ))}
              </ul>
              <span className="mt-auto inline-flex items-center gap-1 pt-6 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
                Start building
                <ArrowRight
                  aria-hidden="true"
                  className="h-4 w-4 transition-transform group-hover:translate-x-1"
                />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </PageContainer>
  );
}
