import {
  Bot,
  Download,
  Eye,
  Hammer,
  KeyRound,
  PlusCircle,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Card } from '../../components/ui';
import type { DashboardView } from './dashboard-views';
import { useAgents, useApiKeys } from './dashboard-api';
import { realActivity, SAMPLE_ACTIVITY, type ActivityType } from './recent-activity';

const ACTIVITY_ICONS: Record<ActivityType, LucideIcon> = {
  agent_created: PlusCircle,
  agent_built: Hammer,
  api_key_added: KeyRound,
  agent_downloaded: Download,
  agent_previewed: Eye,
};

const tileClasses =
  'group block h-full w-full rounded-2xl border border-slate-200 bg-white p-6 text-left shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700 dark:focus-visible:ring-offset-slate-950';

function TileBody({
  icon: Icon,
  title,
  text,
}: {
  icon: LucideIcon;
  title: string;
  text: ReactNode;
}) {
  return (
    <>
      <span className="grid h-12 w-12 place-items-center rounded-xl bg-indigo-100 text-indigo-700 group-hover:bg-indigo-600 group-hover:text-white dark:bg-indigo-950 dark:text-indigo-300">
        <Icon aria-hidden="true" className="h-6 w-6" />
      </span>
      <span className="mt-4 block text-lg font-semibold text-slate-900 dark:text-white">
        {title}
      </span>
      <span className="mt-1 block text-sm text-slate-600 dark:text-slate-300">{text}</span>
    </>
  );
}

/** docs/product.md#the-dashboard: three cards and the Recent Activity panel. */
export function OverviewView({ onOpen }: { onOpen: (view: DashboardView) => void }) {
  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <h2 className="sr-only">Quick actions</h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <li>
            <Link to="/dashboard/create-agent" className={tileClasses}>
              <TileBody
                icon={Sparkles}
                title="Create New Agent"
                text="Start a RAG, SQL or image generation agent with a guided wizard."
              />
            </Link>
          </li>
          <li>
            <button type="button" className={tileClasses} onClick={() => onOpen('agents')}>
              <TileBody
                icon={Bot}
                title="My Agents"
                text="See your agents and their build status; preview, download or delete them."
              />
            </button>
          </li>
          <li>
            <button type="button" className={tileClasses} onClick={() => onOpen('keys')}>
              <TileBody
                icon={KeyRound}
                title="API Keys"
                text="Store the LLM provider keys your agents use, encrypted in your vault."
              />
            </button>
          </li>
        </ul>
      </div>
      <RecentActivity />
    </div>
  );
}

/** The user's own agents and keys, newest first; the sample entries only while there are none. */
function RecentActivity() {
  const agents = useAgents();
  const keys = useApiKeys();
  const own = realActivity(agents.data ?? [], keys.data ?? []);
  const sample = own.length === 0;
  return (
    <Card as="section" aria-labelledby="recent-activity-title">
      <div className="flex items-center justify-between gap-2">
        <h2
          id="recent-activity-title"
          className="text-lg font-semibold text-slate-900 dark:text-white"
        >
          Recent Activity
        </h2>
        {sample && <Badge tone="grey">Sample data</Badge>}
      </div>
      {sample && (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Example entries showing what this panel will track.
        </p>
      )}
      <ul className="mt-4 space-y-4">
        {(sample ? SAMPLE_ACTIVITY : own).map((entry) => {
          const Icon = ACTIVITY_ICONS[entry.type];
          return (
            <li key={entry.id} className="flex gap-3">
              <span className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                <Icon aria-hidden="true" className="h-4 w-4" />
              </span>
              <div className="min-w-0">
                <p className="text-sm [overflow-wrap:anywhere] text-slate-800 dark:text-slate-100">
                  {entry.description}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">{entry.timestamp}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
