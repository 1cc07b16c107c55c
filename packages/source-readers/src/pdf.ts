import { Worker } from 'node:worker_threads';
import type { TUploadSummary } from '@agentloom/contracts';
import { PDF_MAGIC, startsWith } from './file-signature';
import { UnreadableUploadError, UnsupportedUploadError, reasonOf } from './upload-errors';
import { countCodePoints } from './utf8-text';

/** A PDF that takes longer is refused rather than allowed to keep a core busy. */
const PARSE_TIMEOUT_MS = 30_000;
/** Caps the parser's JS heap (text, objects); pdf.js' byte arrays live outside it. */
const PARSE_MAX_HEAP_MB = 512;

/*
 * pdf.js runs in a worker thread: parsing is CPU-bound and would stall the gateway's event loop,
 * compressed content streams can expand far beyond the file's size, and a worker can be given a
 * heap limit and be terminated. The worker also loads unpdf's ESM PDF.js bundle with a real
 * dynamic import, which the jest module sandbox cannot do.
 *
 * The worker is plain JavaScript in a string because tsc does not copy .js files to dist and a
 * .ts worker would need a loader. It reads the file whole: pdf.js needs random access to the
 * cross-reference table, and the upload size limit bounds the file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFile } = require('node:fs/promises');
const { extractText, getDocumentProxy } = require(workerData.unpdfPath);

async function parse() {
  const data = new Uint8Array(await readFile(workerData.filePath));
  const pdf = await getDocumentProxy(data, { verbosity: 0 }); // errors only, no console noise
  try {
    const { totalPages, text } = await extractText(pdf);
    return { pages: totalPages, text };
  } finally {
    await pdf.destroy();
  }
}

parse().then(
  (result) => parentPort.postMessage({ ok: true, ...result }),
  (error) => parentPort.postMessage({ ok: false, reason: error instanceof Error ? error.message : String(error) }),
);
`;

type WorkerResult = { ok: true; pages: number; text: string[] } | { ok: false; reason: string };

/** Page count and extracted text length (in code points) of a PDF. */
export async function inspectPdf(
  filePath: string,
): Promise<Extract<TUploadSummary, { kind: 'pdf' }>> {
  if (!(await startsWith(filePath, PDF_MAGIC))) {
    throw new UnsupportedUploadError('The file is not a PDF.');
  }
  const text = await readPdfPages(filePath);
  const characters = text.reduce((sum, page) => sum + countCodePoints(page), 0);
  return { kind: 'pdf', pages: text.length, characters };
}

/** The text of each page, in order (an empty string for a page without text). */
export async function readPdfPages(filePath: string): Promise<string[]> {
  try {
    return (await parseInWorker(filePath)).text;
  } catch (error) {
    throw new UnreadableUploadError(`The PDF could not be read: ${reasonOf(error)}`);
  }
}

function parseInWorker(filePath: string): Promise<{ pages: number; text: string[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Resolved here so the worker loads the same unpdf as this module, whatever its directory.
      workerData: { filePath, unpdfPath: require.resolve('unpdf') },
      resourceLimits: { maxOldGenerationSizeMb: PARSE_MAX_HEAP_MB },
    });
    const timer = setTimeout(() => {
      reject(new Error(`parsing took longer than ${PARSE_TIMEOUT_MS / 1000} seconds`));
      void worker.terminate();
    }, PARSE_TIMEOUT_MS);
    worker.once('message', (result: WorkerResult) => {
      if (result.ok) resolve(result);
      else reject(new Error(result.reason));
      void worker.terminate(); // pdf.js may leave timers that would keep the thread alive
    });
    worker.once('error', reject); // also how an exceeded heap limit is reported
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the parser stopped unexpectedly (exit code ${code})`)); // no-op once settled
    });
  });
}
