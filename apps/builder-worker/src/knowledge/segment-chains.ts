import {
  readRemovedKeys,
  readSegmentChunks,
  type CarriedChunk,
  type HostedIndexLocation,
  type SegmentChunk,
} from '@agentloom/agent-runtime';
import type { Segment } from './knowledge.repository';
import type { TableUnit } from './source-chunks';

/**
 * Reading a source's chain of segments back: a base and the deltas refreshes wrote on top, where
 * each delta replaces (or removes) earlier chunks by key. Where a segment lies is the caller's
 * (`locate`): the worker's object store.
 */
export type Locate = (segmentId: string) => HostedIndexLocation;

/** The keys each segment of the chain removes from the segments before it. */
function removedBy(chain: Segment[], locate: Locate): Promise<string[][]> {
  return Promise.all(
    chain.map((segment) =>
      segment.segment.removed > 0 ? readRemovedKeys(locate(segment.id)) : Promise.resolve([]),
    ),
  );
}

/**
 * The chain's live units: each key with its chunks' digests, in order. Newest segment first: a
 * key's live chunks are in the newest segment that has it, and what a segment removes is dead in
 * every segment before it.
 */
export async function liveUnits(chain: Segment[], locate: Locate): Promise<Map<string, string>> {
  const removed = await removedBy(chain, locate);
  const live = new Map<string, string>();
  const dead = new Set<string>();
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const taken = new Set<string>();
    for await (const { chunks } of readSegmentChunks(locate(chain[index]!.id), {
      keysOnly: true,
    })) {
      for (const chunk of chunks) {
        if (dead.has(chunk.key) || (live.has(chunk.key) && !taken.has(chunk.key))) continue;
        taken.add(chunk.key);
        const before = live.get(chunk.key);
        live.set(chunk.key, before === undefined ? chunk.hash : `${before},${chunk.hash}`);
      }
    }
    for (const key of removed[index]!) dead.add(key);
  }
  return live;
}

/**
 * The chain's live chunks, with their vectors when asked, except the `gone` keys: what a new base
 * carries over from the chain it replaces, so nothing is embedded again.
 */
export async function* carriedChunks(
  chain: Segment[],
  gone: Set<string>,
  locate: Locate,
  withVectors: boolean,
): AsyncGenerator<CarriedChunk[]> {
  const removed = await removedBy(chain, locate);
  for (let index = 0; index < chain.length; index += 1) {
    const deadHere = new Set(removed.slice(index + 1).flat());
    for await (const batch of readSegmentChunks(locate(chain[index]!.id), {
      vectors: withVectors,
    })) {
      const kept: CarriedChunk[] = [];
      batch.chunks.forEach((chunk, i) => {
        if (gone.has(chunk.key) || deadHere.has(chunk.key)) return;
        kept.push(withVectors ? { ...chunk, vector: batch.vectors![i]! } : chunk);
      });
      if (kept.length > 0) yield kept;
    }
  }
}

/** What reading a source again found, compared with its chain's live units. */
export interface UnitDiff {
  /** The chunks of new and changed units, to embed into a delta (or a new base). */
  changed: SegmentChunk[];
  changedUnits: number;
  addedUnits: number;
  /** Units gone from the source. */
  removedUnits: string[];
  /** Every key the change replaces or removes in the chain: changed units and gone ones. */
  removed: Set<string>;
}

/**
 * Compares a source's units, as read now, with the chain's live ones (key → digests): an
 * unchanged unit costs nothing, a new or changed one brings its chunks.
 */
export async function diffUnits(
  units: AsyncIterable<TableUnit[]>,
  live: Map<string, string>,
): Promise<UnitDiff> {
  const seen = new Set<string>();
  const changed: SegmentChunk[] = [];
  const removed = new Set<string>();
  let changedUnits = 0;
  let addedUnits = 0;
  for await (const batch of units) {
    for (const unit of batch) {
      seen.add(unit.key);
      const before = live.get(unit.key);
      if (before === unit.chunks.map((chunk) => chunk.hash).join(',')) continue;
      if (before === undefined) {
        addedUnits += 1;
      } else {
        changedUnits += 1;
        removed.add(unit.key);
      }
      changed.push(...unit.chunks);
    }
  }
  const removedUnits = [...live.keys()].filter((key) => !seen.has(key));
  for (const key of removedUnits) removed.add(key);
  return { changed, changedUnits, addedUnits, removedUnits, removed };
}

/** The vectors of a chain's chunks by their text's digest (a file's: bounded by its size). */
export async function chainVectors(
  chain: Segment[],
  locate: Locate,
): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  for (const segment of chain) {
    for await (const batch of readSegmentChunks(locate(segment.id), { vectors: true })) {
      batch.chunks.forEach((chunk, i) => vectors.set(chunk.hash, batch.vectors![i]!));
    }
  }
  return vectors;
}

/** A chain's live chunk count (recorded with its newest segment). */
export function liveOf(chain: Segment[]): number {
  return chain.at(-1)?.segment.live ?? 0;
}

/** A stream of chunk batches cut into parts of at most `max` chunks, read one part at a time. */
export class PartReader {
  private readonly iterator: AsyncIterator<CarriedChunk[]>;
  private carry: CarriedChunk[] = [];
  private done = false;

  constructor(
    source: AsyncIterable<CarriedChunk[]>,
    private readonly max: number,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  async *part(): AsyncGenerator<CarriedChunk[]> {
    let taken = 0;
    while (taken < this.max) {
      if (this.carry.length === 0) {
        if (this.done) return;
        const next = await this.iterator.next();
        if (next.done) {
          this.done = true;
          return;
        }
        this.carry = next.value;
        continue;
      }
      const slice = this.carry.slice(0, this.max - taken);
      this.carry = this.carry.slice(slice.length);
      taken += slice.length;
      yield slice;
    }
  }

  /** Whether nothing is left for another part. */
  async ended(): Promise<boolean> {
    if (this.carry.length > 0) return false;
    if (this.done) return true;
    const next = await this.iterator.next();
    if (next.done) {
      this.done = true;
      return true;
    }
    this.carry = next.value;
    return false;
  }
}

/** Units' chunks, batch by batch. */
export async function* flatten(units: AsyncIterable<TableUnit[]>): AsyncGenerator<SegmentChunk[]> {
  for await (const batch of units) yield batch.flatMap((unit) => unit.chunks);
}

export async function* concat<T>(
  first: AsyncIterable<T>,
  second: Iterable<T> | AsyncIterable<T>,
): AsyncGenerator<T> {
  yield* first;
  yield* second;
}
