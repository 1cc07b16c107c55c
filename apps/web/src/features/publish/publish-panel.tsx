import { siteOrigins, type TPublication, type TPublicationSettings } from '@agentloom/contracts';
import { Globe, Rocket } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Badge, Button, Card, CopyButton, Spinner, TextArea } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { AgentBuilds } from './build-history';
import { ConversationsSection } from './conversations-section';
import { CopyRow } from './copy-row';
import { CuratedAnswersSection } from './curated-answers-section';
import { DeveloperSection } from './developer-section';
import { InsightsSection } from './insights-section';
import { usePublication, usePublicationChange } from './publish-api';
import { VisitorsNote } from './visitors-note';
import { WidgetTest } from './widget-test';

/**
 * Everything about one agent's permanent endpoint: publish or unpublish it, its API and access
 * keys, the share page and the chat widget, and the conversations people had with it.
 */
export function PublishPanel({ agentId, agentName }: { agentId: string; agentName: string }) {
  const publication = usePublication(agentId);
  const change = usePublicationChange(agentId);

  if (publication.isPending) return <Spinner size="sm" label="Loading publishing…" />;
  if (publication.isError) {
    return (
      <Alert>{errorDetail(publication.error) ?? 'Could not load the publishing settings.'}</Alert>
    );
  }
  const state = publication.data;

  function run(action: 'publish' | 'unpublish', done: string) {
    change.mutate(action, {
      onSuccess: () => notify.success(done),
      onError: (error) =>
        notify.error('Publishing failed', errorDetail(error) ?? 'Please try again.'),
    });
  }

  return (
    <Card as="section" aria-label={`Publishing of ${agentName}`} className="space-y-4 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone={state.published ? 'green' : 'grey'}>
          {state.published ? 'Published' : 'Not published'}
        </Badge>
        {state.published ? (
          <>
            <Button
              size="sm"
              variant="outline"
              loading={change.isPending && change.variables === 'unpublish'}
              onClick={() => run('unpublish', 'Agent unpublished')}
            >
              Unpublish
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            loading={change.isPending && change.variables === 'publish'}
            onClick={() => run('publish', 'Agent published')}
          >
            <Rocket aria-hidden="true" className="h-4 w-4" />
            Publish
          </Button>
        )}
      </div>
      <VisitorsNote agentId={agentId} />
      {state.published && <FollowKnowledge state={state} agentId={agentId} />}
      <BuildsSection agentId={agentId} agentName={agentName} />
      {state.published ? (
        <>
          <ShareSection state={state} agentId={agentId} />
          <DeveloperSection state={state} agentId={agentId} agentName={agentName} />
          <InsightsSection agentId={agentId} />
          <ConversationsSection agentId={agentId} />
          <CuratedAnswersSection agentId={agentId} />
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Publishing serves this agent&apos;s latest build from Agentloom until you unpublish it: an
          API, an OpenAI-compatible endpoint, and if you want a share page and a chat widget.
          Unpublishing revokes its access keys; make new ones when you publish it again.
        </p>
      )}
    </Card>
  );
}

/**
 * Whether a build that changes only the knowledge (a source added, replaced, refreshed or
 * removed) is served to visitors as soon as it is Built, or waits for Publish like any other.
 */
function FollowKnowledge({ state, agentId }: { state: TPublication; agentId: string }) {
  const change = usePublicationChange(agentId);
  return (
    <div className="space-y-1 text-sm">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={state.follow_knowledge}
          disabled={change.isPending}
          onChange={(event) =>
            change.mutate(
              { follow_knowledge: event.target.checked },
              {
                onError: (error) =>
                  notify.error('Could not save', errorDetail(error) ?? 'Please try again.'),
              },
            )
          }
        />
        Published agent follows knowledge changes
      </label>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        On: a build that only adds, replaces, refreshes or removes sources reaches visitors as soon
        as it is built. Off: visitors keep this build until you publish another.
      </p>
    </div>
  );
}

/** Every build of the agent, with the one visitors see and "Publish this build" (rollback). */
function BuildsSection({ agentId, agentName }: { agentId: string; agentName: string }) {
  return (
    <div className="space-y-2 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">Builds</h4>
      <AgentBuilds agentId={agentId} agentName={agentName} />
    </div>
  );
}

function ShareSection({ state, agentId }: { state: TPublication; agentId: string }) {
  const change = usePublicationChange(agentId);
  const [origins, setOrigins] = useState(state.allowed_origins.join('\n'));
  const save = (settings: TPublicationSettings) =>
    change.mutate(settings, {
      onSuccess: (saved) => {
        // The sites as the server stored them: www.example.com now reads its https:// and http://.
        const stored = (saved as TPublication | undefined)?.allowed_origins;
        if (stored && settings.allowed_origins) setOrigins(stored.join('\n'));
        notify.success('Saved');
      },
      onError: (error) => notify.error('Could not save', errorDetail(error) ?? 'Please try again.'),
    });
  const typed = origins.split(/[\s,]+/).filter(Boolean);
  const snippet = `<script src="${state.widget_script_url}" data-agent="${agentId}" async></script>`;
  return (
    <div className="space-y-3 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">Share page and widget</h4>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={state.share_enabled}
          onChange={(event) => save({ share_enabled: event.target.checked })}
        />
        Public share page
      </label>
      <VisitorSources state={state} onChange={(show_sources) => save({ show_sources })} />
      {state.share_enabled && (
        <div className="space-y-1">
          <p>
            <Globe aria-hidden="true" className="mr-1 inline h-4 w-4" />
            <a
              className="break-all text-indigo-700 underline dark:text-indigo-300"
              href={state.share_url}
              target="_blank"
              rel="noreferrer"
            >
              {state.share_url}
            </a>
          </p>
          <CopyButton text={state.share_url} label="Copy share link" what="Share link" />
        </div>
      )}
      <TextArea
        label="Sites that may embed the chat widget"
        hint="The addresses of your websites, one per line, such as www.rosebakery.com (allows its https:// and http:// pages) or http://localhost:8080 (kept as you type it). A page's address counts as its whole site. Leave empty to turn the widget off."
        rows={3}
        value={origins}
        onChange={(event) => setOrigins(event.target.value)}
      />
      {typed.length > 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Will allow: {typed.flatMap(siteOrigins).join(', ')}
        </p>
      )}
      <Button
        size="sm"
        variant="outline"
        loading={change.isPending}
        onClick={() => save({ allowed_origins: typed })}
      >
        Save sites
      </Button>
      {state.refused_origins.length > 0 && (
        <RefusedSites
          refused={state.refused_origins}
          busy={change.isPending}
          onAllow={(origin) => save({ allowed_origins: [...state.allowed_origins, origin] })}
        />
      )}
      {state.allowed_origins.length > 0 && (
        <>
          <WidgetSnippet snippet={snippet} />
          {/* Sites saved anew offer their own page. */}
          <WidgetTest key={state.allowed_origins.join(' ')} allowed={state.allowed_origins} />
        </>
      )}
    </div>
  );
}

/**
 * Sites whose pages tried to show the widget and were refused: the owner sees a typo or a
 * missing www at once, and allows the site with one click.
 */
function RefusedSites({
  refused,
  busy,
  onAllow,
}: {
  refused: TPublication['refused_origins'];
  busy: boolean;
  onAllow: (origin: string) => void;
}) {
  return (
    <Alert tone="info">
      <p className="font-semibold">These sites tried to show the chat but are not allowed:</p>
      <ul className="mt-2 space-y-2">
        {refused.map(({ origin, last_seen }) => (
          <li key={origin} className="flex flex-wrap items-center gap-2">
            <code className="break-all">{origin}</code>
            <span className="text-xs">last {new Date(last_seen).toLocaleString()}</span>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => onAllow(origin)}>
              Allow {origin}
            </Button>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** The line to paste into the allowed sites' pages, with its copy button and the guide. */
function WidgetSnippet({ snippet }: { snippet: string }) {
  return (
    <div className="space-y-1">
      <p className="text-slate-700 dark:text-slate-300">
        Paste this just before <code>&lt;/body&gt;</code> on those sites&apos; pages (
        <Link to="/docs#website-chat" className="text-indigo-700 underline dark:text-indigo-300">
          step-by-step guide
        </Link>
        ):
      </p>
      <CopyRow text={snippet} label="Copy widget snippet" what="Widget snippet" />
    </div>
  );
}

/**
 * Whether visitors see what each answer was made from. Off by default for tables, whose
 * "sources" are raw rows; a warning says what turning it on shows.
 */
function VisitorSources({
  state,
  onChange,
}: {
  state: TPublication;
  onChange: (show: boolean) => void;
}) {
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={state.show_sources}
          onChange={(event) => onChange(event.target.checked)}
        />
        Show sources to visitors
      </label>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Under each answer on the share page and in the widget: the passages, rows or query it used.
        Your own conversations always keep them.
      </p>
      {state.source_is_table && state.show_sources && (
        <Alert>
          This agent answers from a table: visitors will see its raw rows — names, amounts, e-mail
          addresses — under the answers. Turn this off unless the whole table may be public.
        </Alert>
      )}
    </div>
  );
}
