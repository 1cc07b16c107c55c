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

type AgentKind = {
  /** What the agent does, in the words of someone who has the problem. */
  goal: string;
  /** The agent kind's name, shown beside the goal. */
  title: string;
  to: string;
  icon: LucideIcon;
  text: string;
  /** Which questions it is the right choice for. */
  bestFor: string;
  points: string[];
};

/** docs/product.md#choosing-an-agent-kind: three cards, named by what they do, kinds beside. */
const KINDS: AgentKind[] = [
  {
    goal: 'Answer questions from documents',
    title: 'RAG Agent',
    to: '/pipeline/rag',
    icon: Database,
    text: 'A chatbot that reads your files or database tables and answers in its own words, showing the passages it used.',
    bestFor:
      'Best for manuals, policies, FAQs and notes: “What is our refund policy?”. It reads a handful of passages per question, so it cannot count or total a whole table.',
    points: ['PDF, CSV, Excel, TXT or a database', 'Shows where each answer came from'],
  },
  {
    goal: 'Calculate answers from tables',
    title: 'SQL Agent',
    to: '/pipeline/sql',
    icon: BarChart3,
    text: 'An analyst that answers by running a query over your whole spreadsheet or database table.',
    bestFor:
      'Best for counts, totals and rankings: “How many orders were cancelled?”, “Sales per month?”.',
    points: ['CSV, Excel, MySQL, Postgres or SQLite', 'Every answer backed by a query you can see'],
  },
  {
    goal: 'Create and edit images',
    title: 'Image Generation Agent',
    to: '/build/image',
    icon: ImageIcon,
    text: 'A ready-made app that creates and edits images from text descriptions, started with one button.',
    bestFor: 'Best for product shots, illustrations and quick edits of a picture you upload.',
    points: ['Gemini-powered', 'Generate, download and edit'],
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
        description="What should your agent do? Pick the goal; you can build another at any time."
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
                title={kind.goal}
                text={kind.text}
                tileClassName="group-hover:bg-indigo-600 group-hover:text-white"
              />
              <p className="mt-2 text-xs font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">
                {kind.title}
              </p>
              <p className="mt-3 text-sm text-slate-700 dark:text-slate-200">{kind.bestFor}</p>
              <ul className="mt-3 space-y-1 text-sm text-slate-700 dark:text-slate-200">
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
