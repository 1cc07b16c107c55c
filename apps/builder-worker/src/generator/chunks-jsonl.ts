import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { ProjectInputError, type SourceChunk } from './types';

/**
 * Writes `data/chunks.jsonl`: one JSON object per line ({id, text, source, page?, row?, ref?}),
 * the format agent/chunking.py reads. JSON escapes every newline inside a value, so lines stay
 * whole. Streams with backpressure, so the source's size never decides the memory used.
 * Returns how many chunks were written.
 */
export async function writeChunksJsonl(
  filePath: string,
  chunks: AsyncIterable<SourceChunk> | Iterable<SourceChunk>,
): Promise<number> {
  const out = createWriteStream(filePath);
  const failed = once(out, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => undefined); // raced below
  const ids = new Set<string>();
  let count = 0;
  try {
    for await (const chunk of chunks) {
      const line = `${chunkJsonLine(chunk, count, ids)}\n`;
      count += 1;
      if (!out.write(line)) await Promise.race([once(out, 'drain'), failed]);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    return count;
  } finally {
    out.destroy();
  }
}

function chunkJsonLine(chunk: SourceChunk, index: number, ids: Set<string>): string {
  if (typeof chunk.id !== 'string' || chunk.id === '' || typeof chunk.text !== 'string') {
    throw new ProjectInputError(`Chunk ${index} needs a non-empty string id and a text.`);
  }
  if (ids.has(chunk.id)) throw new ProjectInputError(`Chunk id ${chunk.id} is repeated.`);
  ids.add(chunk.id);
  for (const key of ['page', 'row'] as const) {
    const value = chunk[key];
    if (value !== undefined && !Number.isInteger(value)) {
      throw new ProjectInputError(`Chunk ${chunk.id}: ${key} must be a whole number.`);
    }
  }
  const { id, text, source, page, row, ref } = chunk;
  return JSON.stringify({ id, text, source: String(source ?? ''), page, row, ref });
}
