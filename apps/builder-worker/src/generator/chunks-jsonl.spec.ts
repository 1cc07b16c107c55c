import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeChunksJsonl } from './chunks-jsonl';
import { ProjectInputError, type SourceChunk } from './types';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'chunks-jsonl-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('writeChunksJsonl', () => {
  it('writes each chunk as the line JSON.stringify makes of it, across batches', async () => {
    const chunks: SourceChunk[] = [
      { text: 'region: North\namount: 120', source: 'sales.csv', row: 1 },
      { text: 'Quotes " and \\ and \u2028 and 🤖', source: 'a.pdf', page: 3 },
      { text: 'x', source: 'public.orders', ref: 'id=42' },
    ];
    const numbered = chunks.map((chunk, index) => ({ id: `chunk-00000${index}`, ...chunk }));
    const file = path.join(dir, 'chunks.jsonl');

    expect(await writeChunksJsonl(file, [chunks.slice(0, 2), [], chunks.slice(2)])).toBe(3);

    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines).toEqual([...numbered.map((chunk) => JSON.stringify(chunk)), '']);
    expect(lines.slice(0, 3).map((line) => JSON.parse(line) as unknown)).toEqual(numbered);
  });

  it('refuses fractional rows and pages', async () => {
    const file = path.join(dir, 'bad.jsonl');
    const chunk = { text: 'a', source: 's' };
    await expect(writeChunksJsonl(file, [[chunk, { ...chunk, row: 1.5 }]])).rejects.toThrow(
      'Chunk chunk-000001: row must be a whole number.',
    );
    await expect(writeChunksJsonl(file, [[{ ...chunk, page: 0.5 }]])).rejects.toThrow(
      ProjectInputError,
    );
  });
});
