import type { TKnowledgeSource } from '@agentloom/contracts';
import type { BadgeTone } from '../../components/ui';

/** A source's status in plain words, with the badge colour it is shown in. */
export function statusWords(source: TKnowledgeSource): { text: string; tone: BadgeTone } {
  switch (source.status) {
    case 'waiting':
      return { text: 'Waiting for the next build', tone: 'grey' };
    case 'indexing': {
      const progress = source.progress;
      const done =
        progress && progress.of > 0 ? `: ${progress.done} of ${progress.of} ${progress.unit}` : '';
      return { text: `Reading${done}`, tone: 'yellow' };
    }
    case 'ready':
      return { text: 'Ready', tone: 'green' };
    case 'failed':
      return { text: 'Could not be read', tone: 'red' };
    case 'paused':
      return { text: 'Refreshes paused after 3 failures', tone: 'red' };
  }
}

const KIND_WORDS: Record<TKnowledgeSource['kind'], string> = {
  file: 'File',
  table: 'Database table',
  web: 'Web pages',
};

/** What the source is: "File", "Database table (postgres)", "Web pages (up to 20)". */
export function kindWords(source: TKnowledgeSource): string {
  if (source.kind === 'table') return `${KIND_WORDS.table} (${source.source_type})`;
  if (source.kind === 'web' && source.web && source.web.max_pages > 1) {
    return `${KIND_WORDS.web} (up to ${source.web.max_pages})`;
  }
  if (source.kind === 'file' && source.version > 1) {
    return `${KIND_WORDS.file}, version ${source.version}`;
  }
  return KIND_WORDS[source.kind];
}

export const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "12 passages" / "1 passage". */
export const passages = (count: number) => `${count} passage${count === 1 ? '' : 's'}`;

/** The last change, in words, with its time: "added · Nov 28, 2026, 12:10 PM". */
export function lastChangeWords(source: TKnowledgeSource): string | null {
  const at = source.last_changed_at ?? source.last_refreshed_at;
  if (!source.last_change && !at) return null;
  return [source.last_change, at && when(at)].filter(Boolean).join(' · ');
}
