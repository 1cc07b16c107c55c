import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkHash, localIndexFolder, type SegmentChunk } from './hosted-index';
import { writeSegment } from './hosted-index-build';
import { readPassage, type PassageTable } from './passages';

const SOURCE = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const chunk = (fields: Partial<SegmentChunk> & { id: string; text: string }): SegmentChunk => ({
  key: fields.id,
  hash: chunkHash(fields.text),
  source: 'orders',
  ...fields,
});

const row = (n: number, region: string) =>
  chunk({ id: `id=${n}#0`, key: `id=${n}`, row: n, ref: `id=${n}`, text: `region: ${region}` });

/**
 * Reading a cited passage back from a build's segments (full-text segments: no embedding model
 * needed to write or read them): the live passage, its neighbours by row, page or address, and
 * nothing a later delta replaced or removed.
 */
describe('readPassage', () => {
  let root: string;
  let count = 0;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'agent-runtime-passages-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function table(
    sourceId: string,
    role: 'base' | 'delta',
    chunks: SegmentChunk[],
    removed: string[] = [],
  ): Promise<PassageTable> {
    count += 1;
    const location = localIndexFolder(path.join(root, `segment-${count}`));
    const written = await writeSegment({
      location,
      model: 'text-embedding-3-small',
      embedder: { keywordBecause: 'no key in this test' },
      role,
      chunks: [chunks],
      removed,
    });
    return { location, sourceId, removed: written.info.removed, empty: chunks.length === 0 };
  }

  it('finds a row among its live neighbours, the delta’s version of a changed row', async () => {
    const regions = ['Porto', 'Lisbon', 'Braga', 'Faro', 'Evora', 'Aveiro'];
    const base = await table(
      SOURCE,
      'base',
      regions.map((region, i) => row(i + 1, region)),
    );
    // A refresh: row 3 changed, row 5 is gone.
    const delta = await table(SOURCE, 'delta', [row(3, 'Braga (new)')], ['id=3', 'id=5']);
    const other = await table(OTHER, 'base', [chunk({ id: 'notes#0', text: 'region: Porto' })]);
    const tables = [base, delta, other];
    const read = await readPassage(tables, 'id=3#0');
    expect(read?.chunk).toMatchObject({ id: 'id=3#0', row: 3, text: 'region: Braga (new)' });
    expect(read?.neighbours.map((n) => `${n.row} ${n.text}`)).toEqual([
      '1 region: Porto',
      '2 region: Lisbon',
      '3 region: Braga (new)',
      '4 region: Faro',
    ]);
    expect(await readPassage(tables, 'id=5#0')).toBeNull();
    expect(await readPassage(tables, 'notes#0')).toMatchObject({ chunk: { source: 'orders' } });
    expect(await readPassage(tables, "id=1#0' OR '1'='1")).toBeNull();
    expect(await readPassage([base], 'id=5#0')).toMatchObject({ chunk: { row: 5 } });
  });

  it('gives a page’s passages, a web page’s passages, and a plain passage’s neighbours', async () => {
    const pdf = await table(SOURCE, 'base', [
      chunk({ id: 'c0', source: 'guide.pdf', page: 1, text: 'Page one.' }),
      chunk({ id: 'c1', source: 'guide.pdf', page: 2, text: 'Warranty: two years.' }),
      chunk({ id: 'c2', source: 'guide.pdf', page: 2, text: 'Keep the receipt.' }),
      chunk({ id: 'c3', source: 'guide.pdf', page: 3, text: 'Page three.' }),
    ]);
    const page = await readPassage([pdf], 'c2');
    expect(page?.neighbours.map((n) => n.id)).toEqual(['c1', 'c2']);
    const url = 'https://shop.example.com/help';
    const site = await table(OTHER, 'base', [
      chunk({ id: `${url}#0`, key: url, source: url, url, text: 'Returns take 30 days.' }),
      chunk({ id: `${url}#1`, key: url, source: url, url, text: 'Refunds take 5 days.' }),
      chunk({
        id: 'x#0',
        key: 'x',
        source: 'https://x.example.com',
        url: 'https://x.example.com',
        text: 'x',
      }),
    ]);
    const web = await readPassage([pdf, site], `${url}#1`);
    expect(web?.neighbours.map((n) => n.text)).toEqual([
      'Returns take 30 days.',
      'Refunds take 5 days.',
    ]);
    const text = await table(SOURCE, 'base', [
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => chunk({ id, source: 'notes.txt', text: id })),
    ]);
    const plain = await readPassage([text], 'a');
    expect(plain?.neighbours.map((n) => n.id)).toEqual(['a', 'b', 'c']);
  });
});
