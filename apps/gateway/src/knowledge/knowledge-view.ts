import {
  ZKnowledgeSourceSettings,
  ZSourceProgress,
  type TKnowledgeSource,
} from '@agentloom/contracts';
import type { KnowledgeSource } from '@agentloom/db';

/** A source as its owner sees it (GET /agents/{id}/sources). */
export function sourceView(source: KnowledgeSource): TKnowledgeSource {
  const settings = ZKnowledgeSourceSettings.parse(source.settings);
  const progress = ZSourceProgress.safeParse(source.progress);
  return {
    id: source.id,
    kind: source.kind,
    source_type: source.sourceType,
    name: source.name,
    primary: source.primary,
    // Removed sources are never listed; the type keeps the statuses a listed one can have.
    status: source.status === 'removed' ? 'ready' : source.status,
    error: source.error,
    chunks: source.chunks,
    refresh: source.refresh,
    refreshable: source.kind !== 'file',
    last_change: source.lastChange,
    progress: source.status === 'indexing' && progress.success ? progress.data : null,
    last_changed_at: source.lastChangedAt?.toISOString() ?? null,
    last_refreshed_at: source.lastRefreshedAt?.toISOString() ?? null,
    created_at: source.createdAt.toISOString(),
    file: settings.file?.upload ?? null,
    version: source.contentVersion,
    table: settings.table ?? null,
    web: settings.web ?? null,
  };
}
