import type {
  TBuildHistoryItem,
  TKnowledgeSource,
  TKnowledgeSources,
  TPublication,
} from '@agentloom/contracts';
import { FIXTURE_AT } from './build-view';
import type { Call, Reply } from './render';

/** A GET /agents/{id}/sources source for tests: a ready CSV the wizard set. */
export function sourceFixture(overrides: Partial<TKnowledgeSource> = {}): TKnowledgeSource {
  return {
    id: '5e0c1d2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
    kind: 'file',
    source_type: 'csv',
    name: 'sales.csv',
    primary: true,
    status: 'ready',
    error: null,
    chunks: 6,
    refresh: 'off',
    refreshable: false,
    last_change: 'added',
    progress: null,
    last_changed_at: FIXTURE_AT,
    last_refreshed_at: null,
    created_at: FIXTURE_AT,
    file: null,
    version: 1,
    table: null,
    web: null,
    ...overrides,
  };
}

export const sourcesFixture = (
  sources: TKnowledgeSource[] = [],
  building: string | null = null,
): TKnowledgeSources => ({ sources, building_build_id: building });

/** A GET /agents/{id}/publication answer: not published unless overridden. */
export function publicationFixture(overrides: Partial<TPublication> = {}): TPublication {
  return {
    published: false,
    build_id: null,
    latest_build_id: null,
    build_number: null,
    latest_build_number: null,
    published_at: null,
    follow_knowledge: true,
    share_enabled: false,
    allowed_origins: [],
    api_url: 'http://localhost/agents/x/chat',
    share_url: 'http://localhost/s/x/',
    widget_script_url: 'http://localhost/w/widget.js',
    mcp_url: 'http://localhost/agents/x/mcp',
    show_sources: true,
    source_is_table: false,
    refused_origins: [],
    ...overrides,
  };
}

/** A GET /pipelines/{id}/builds entry: Built build `number`. */
export function historyFixture(
  number: number,
  overrides: Partial<TBuildHistoryItem> = {},
): TBuildHistoryItem {
  return {
    build_id: `00000000-0000-4000-8000-00000000000${number}`,
    number,
    status: 'Built',
    created_at: FIXTURE_AT,
    finished_at: FIXTURE_AT,
    error: null,
    changes: number === 1 ? ['First build'] : ['added faq.txt'],
    trigger: number === 1 ? 'wizard' : 'knowledge',
    published: false,
    download_url: null,
    evaluation: null,
    ...overrides,
  };
}

/**
 * The agent's sources (none) and publication (not published), for screens whose tests are about
 * something else: the build screen shows both beside the build.
 */
export function quietAgentSide(call: Call): Reply | undefined {
  if (/^\/agents\/[^/]+\/sources$/.test(call.path)) return { json: sourcesFixture() };
  if (/^\/agents\/[^/]+\/publication$/.test(call.path)) return { json: publicationFixture() };
  return undefined;
}
