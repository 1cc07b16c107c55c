import {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
  UnusableDataSourceError,
} from '@agentloom/data-sources';
import type { KnowledgeSource } from '@agentloom/db';
import { UnreadableUploadError, UnsupportedUploadError } from '@agentloom/source-readers';

/**
 * A change to one source that failed for a reason of the source's own (a file that no longer
 * reads, a table that vanished, a wrong password, an address the guard refuses): the source
 * shows the message, and the agent keeps answering from what it had.
 */
export class SourceError extends Error {}

/** What a refresh found, in words: "10 rows changed, 2 rows added". */
export function describeChange(
  source: KnowledgeSource,
  counts: { changedUnits: number; addedUnits: number; removedUnits: string[] },
): string {
  const unit = source.kind === 'web' ? 'page' : 'row';
  const parts: string[] = [];
  const plural = (n: number, word: string) =>
    `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
  if (counts.changedUnits > 0) parts.push(`${plural(counts.changedUnits, unit)} changed`);
  if (counts.addedUnits > 0) parts.push(`${plural(counts.addedUnits, unit)} added`);
  if (counts.removedUnits.length > 0) {
    parts.push(`${plural(counts.removedUnits.length, unit)} removed`);
  }
  return parts.join(', ');
}

/**
 * Runs a source's read and turns what is the source's own fault into a SourceError with a plain
 * message naming it; provider failures (the embedding model) pass through and fail the build.
 */
export async function asSourceError<T>(
  source: KnowledgeSource,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (
      error instanceof InvalidDataSourceError ||
      error instanceof RefusedDataSourceError ||
      error instanceof UnreachableDataSourceError ||
      error instanceof UnusableDataSourceError
    ) {
      throw new SourceError(`${source.name}: ${error.message}`);
    }
    if (error instanceof UnreadableUploadError || error instanceof UnsupportedUploadError) {
      throw new SourceError(`${source.name}: ${error.message} Upload the file again.`);
    }
    throw error;
  }
}
