import type { TPipelineListItem } from '@agentloom/contracts';
import {
  BookOpen,
  ChevronDown,
  Download,
  FileDown,
  History,
  Pencil,
  Play,
  Rocket,
  Search,
  Trash2,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Button, buttonClasses, Card, IconButton } from '../../components/ui';
import { KnowledgePanel } from '../../features/knowledge/knowledge-panel';
import { PublishPanel } from '../../features/publish/publish-panel';
import { RetrievalPanel } from '../../features/retrieval/retrieval-panel';
import { VisitorsNote } from '../../features/publish/visitors-note';
import { summaryPath, wizardPath } from '../../features/wizard/step-navigation';
import { formatKeyDate } from './api-key-format';
import { AgentBuilds } from '../../features/publish/build-history';
import { statusTone } from './status-tone';

/** What a card can ask of the list: the list owns the mutations and which panel is open. */
export interface AgentCardActions {
  onPreview: (agent: TPipelineListItem) => void;
  onDownload: (agent: TPipelineListItem) => void;
  onDelete: (agent: TPipelineListItem) => void;
  /** Saves the agent as a file "Import agent" reads back (issue 31). */
  onExport: (agent: TPipelineListItem) => void;
  /** Ids whose preview / download / export is running, for the per-card spinners. */
  previewingId: string | undefined;
  downloadingId: string | undefined;
  exportingId: string | undefined;
  openPublish: string | null;
  setOpenPublish: (id: string | null) => void;
  openBuilds: string | null;
  setOpenBuilds: (id: string | null) => void;
}

/**
 * One agent of the list (docs/product.md#the-dashboard-agents): name, status, type, date, its
 * actions and their panels.
 */
export function AgentCard({
  agent,
  actions,
}: {
  agent: TPipelineListItem;
  actions: AgentCardActions;
}) {
  const [knowledgeOpen, setKnowledgeOpen] = useState(false);
  const [retrievalOpen, setRetrievalOpen] = useState(false);
  const searches = agent.type === 'rag' && agent.status === 'Built';
  return (
    <Card as="article" className="flex h-full flex-col gap-3" aria-label={agent.name}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900 dark:text-white">
            {agent.name}
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {agent.description || 'No description'}
          </p>
        </div>
        <Badge tone={statusTone(agent.status)} className="shrink-0">
          {agent.status}
        </Badge>
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-slate-600 dark:text-slate-400">Type:</dt>
          <dd className="font-medium text-slate-900 uppercase dark:text-slate-100">{agent.type}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-slate-600 dark:text-slate-400">Created:</dt>
          <dd className="font-medium text-slate-900 dark:text-slate-100">
            {formatKeyDate(agent.created_at)}
          </dd>
        </div>
      </dl>
      {agent.status === 'Built' && <VisitorsNote agentId={agent.id} />}
      <AgentCardButtons
        agent={agent}
        actions={actions}
        knowledge={hasKnowledge(agent) ? { open: knowledgeOpen, setOpen: setKnowledgeOpen } : null}
        retrieval={searches ? { open: retrievalOpen, setOpen: setRetrievalOpen } : null}
      />
      {knowledgeOpen && hasKnowledge(agent) && (
        <div id={`knowledge-${agent.id}`}>
          <KnowledgePanel agentId={agent.id} agentName={agent.name} where="my-agents" />
        </div>
      )}
      {retrievalOpen && searches && (
        <div id={`retrieval-${agent.id}`}>
          <RetrievalPanel agentId={agent.id} built />
        </div>
      )}
      {actions.openPublish === agent.id && agent.status === 'Built' && (
        <PublishPanel agentId={agent.id} agentName={agent.name} />
      )}
      {actions.openBuilds === agent.id && (
        <div id={`builds-${agent.id}`}>
          <AgentBuilds agentId={agent.id} agentName={agent.name} />
        </div>
      )}
    </Card>
  );
}

/** The buttons a card shows depend on its status: Built agents run, drafts continue setup. */
function AgentCardButtons({
  agent,
  actions,
  knowledge,
  retrieval,
}: {
  agent: TPipelineListItem;
  actions: AgentCardActions;
  /** RAG agents with a build: whether their Knowledge panel is open. */
  knowledge: PanelToggle | null;
  /** Built RAG agents: whether their retrieval settings and test are open. */
  retrieval: PanelToggle | null;
}) {
  const { openBuilds, setOpenBuilds } = actions;
  return (
    <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">
      {agent.status === 'Built' && <RunButtons agent={agent} actions={actions} />}
      {agent.status === 'Draft' && (
        // A draft opens where its setup stopped: the first unfinished step.
        <Link to={wizardPath(agent.type, agent.id)} className={buttonClasses('primary', 'sm')}>
          <Play aria-hidden="true" className="h-4 w-4" />
          Continue setup
        </Link>
      )}
      {(agent.status === 'Built' || agent.status === 'Failed') && (
        // Edit opens the summary of every answer; each has a Change link to its step.
        <Link
          to={summaryPath(agent.type, agent.id)}
          className={buttonClasses('outline', 'sm')}
          aria-label={`Edit ${agent.name}`}
        >
          <Pencil aria-hidden="true" className="h-4 w-4" />
          Edit
        </Link>
      )}
      {agent.status !== 'Draft' && (
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={openBuilds === agent.id}
          aria-controls={`builds-${agent.id}`}
          onClick={() => setOpenBuilds(openBuilds === agent.id ? null : agent.id)}
        >
          <History aria-hidden="true" className="h-4 w-4" />
          Builds
          <ChevronDown aria-hidden="true" className="h-4 w-4" />
        </Button>
      )}
      <PanelButtons agent={agent} knowledge={knowledge} retrieval={retrieval} />
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Export ${agent.name}`}
        loading={actions.exportingId === agent.id}
        onClick={() => actions.onExport(agent)}
      >
        <FileDown aria-hidden="true" className="h-4 w-4" />
        Export
      </Button>
      <IconButton
        icon={Trash2}
        variant="dangerGhost"
        className="ml-auto"
        label={`Delete ${agent.name}`}
        onClick={() => actions.onDelete(agent)}
      />
    </div>
  );
}

type PanelToggle = { open: boolean; setOpen: (open: boolean) => void };

/** The toggles of a card's own panels: its knowledge sources, and how it finds answers. */
function PanelButtons({
  agent,
  knowledge,
  retrieval,
}: {
  agent: TPipelineListItem;
  knowledge: PanelToggle | null;
  retrieval: PanelToggle | null;
}) {
  return (
    <>
      {knowledge && (
        <PanelButton
          toggle={knowledge}
          controls={`knowledge-${agent.id}`}
          label={`Knowledge of ${agent.name}`}
          icon={<BookOpen aria-hidden="true" className="h-4 w-4" />}
          text="Knowledge"
        />
      )}
      {retrieval && (
        <PanelButton
          toggle={retrieval}
          controls={`retrieval-${agent.id}`}
          label={`How ${agent.name} finds answers`}
          icon={<Search aria-hidden="true" className="h-4 w-4" />}
          text="Test retrieval"
        />
      )}
    </>
  );
}

/** A card's button that opens and closes one of its panels. */
function PanelButton({
  toggle,
  controls,
  label,
  icon,
  text,
}: {
  toggle: PanelToggle;
  controls: string;
  label: string;
  icon: ReactNode;
  text: string;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-expanded={toggle.open}
      aria-controls={controls}
      aria-label={label}
      onClick={() => toggle.setOpen(!toggle.open)}
    >
      {icon}
      {text}
      <ChevronDown aria-hidden="true" className="h-4 w-4" />
    </Button>
  );
}

/** A Built agent runs: Preview, Download, and Publish with its panel's toggle. */
function RunButtons({ agent, actions }: { agent: TPipelineListItem; actions: AgentCardActions }) {
  const { openPublish, setOpenPublish } = actions;
  return (
    <>
      <Button
        size="sm"
        onClick={() => actions.onPreview(agent)}
        loading={actions.previewingId === agent.id}
      >
        <Play aria-hidden="true" className="h-4 w-4" />
        Preview
      </Button>
      <Button
        size="sm"
        variant="outline"
        onClick={() => actions.onDownload(agent)}
        loading={actions.downloadingId === agent.id}
      >
        <Download aria-hidden="true" className="h-4 w-4" />
        Download
      </Button>
      <Button
        size="sm"
        variant="outline"
        aria-expanded={openPublish === agent.id}
        aria-label={`Publish ${agent.name}`}
        onClick={() => setOpenPublish(openPublish === agent.id ? null : agent.id)}
      >
        <Rocket aria-hidden="true" className="h-4 w-4" />
        Publish
      </Button>
    </>
  );
}

/** A RAG agent that was built (or is building) has a list of sources its owner changes. */
const hasKnowledge = (agent: TPipelineListItem) => agent.type === 'rag' && agent.status !== 'Draft';
