import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readableSize, type TUploadSummary } from '@agentloom/contracts';
import { PDF_MAGIC, startsWith } from './file-signature';
import { UnreadableUploadError, UnsupportedUploadError, reasonOf } from './upload-errors';
import { withParseSlot } from './parse-slots';
import { countCodePoints } from './utf8-text';

/** A PDF that takes longer is refused rather than allowed to keep a core busy. */
const PARSE_TIMEOUT_MS = 30_000;
/** Caps the parser's JS heap (text, objects); decoded stream bytes are capped below. */
const PARSE_MAX_HEAP_MB = 512;
/**
 * Decoded bytes one stream of a PDF may inflate to (content, fonts, object streams). A page's
 * content or an embedded font rarely reaches a few MB; a whole Unicode font about 25.
 */
export const PDF_MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Decoded bytes all of a PDF's streams may inflate to together, read one after another. */
export const PDF_MAX_DECODED_BYTES = 256 * 1024 * 1024;

const TOO_LARGE = 'decoded-content-over-the-cap';

/*
 * pdf.js runs in a worker thread: parsing is CPU-bound and would stall the gateway's event loop,
 * and a worker can be given a heap limit and be terminated.
 *
 * Compressed streams can expand far beyond the file's size (1 MB of /FlateDecode data inflates to
 * 1 GB), into buffers a heap limit does not bound, and pdf.js has no option to cap them. So the
 * worker loads unpdf's pdf.js bundle with a count added where decoded bytes are produced: where
 * each decoder grows its output buffer, and where content streams are inflated with the native
 * DecompressionStream (PATCHES). The count throws past the caps before the next buffer is
 * allocated; pdf.js carries on after some errors, so the worker also remembers the refusal and
 * reports it. If an unpdf upgrade moves those lines, a patch fails to apply and every PDF is
 * refused (pdf-bomb.spec.ts fails loudly): a PDF is never parsed without the cap.
 *
 * The worker is plain JavaScript in a string because tsc does not copy .js files to dist and a
 * .ts worker would need a loader. It reads the file whole: pdf.js needs random access to the
 * cross-reference table, and the upload size limit bounds the file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFile } = require('node:fs/promises');
const { definePDFJSModule, extractText, getDocumentProxy } = require(workerData.unpdfPath);

// Where pdf.js' decoders grow their output (DecodeStream.ensureBuffer: Flate, LZW, RunLength,
// ASCII85/Hex, decryption), and where it inflates with the native DecompressionStream (content
// streams and CMaps, read whole before parsing): each gets a count that throws past the caps.
const PATCHES = [
  [
    /ensureBuffer\\((\\w+)\\)\\{const (\\w+)=this\\.buffer;if\\(\\1<=\\2\\.byteLength\\)return \\2;/g,
    (line, requested, buffer) => line + '__agentloomDecoding(' + requested + ',' + buffer + '.byteLength);',
  ],
  [
    /for await\\(const (\\w+) of (\\w+)\\)(\\w+)\\.push\\(\\1\\),(\\w+)\\+=\\1\\.byteLength;/g,
    (line, chunk, chunks, list, total) =>
      'for await(const ' + chunk + ' of ' + chunks + '){' + list + '.push(' + chunk + '),' + total +
      '+=' + chunk + '.byteLength;__agentloomDecoding(' + total + ',' + total + '-' + chunk + '.byteLength)}',
  ],
];
let decoded = 0;
let tooLarge = false;
globalThis.__agentloomDecoding = (requested, had) => {
  if (!tooLarge) {
    decoded += requested - had;
    tooLarge = requested > workerData.maxStreamBytes || decoded > workerData.maxDecodedBytes;
  }
  if (tooLarge) throw new Error(workerData.tooLarge);
};

async function cappedPdfjs() {
  let source = await readFile(workerData.pdfjsPath, 'utf8');
  for (const [pattern, insert] of PATCHES) {
    let applied = 0;
    source = source.replace(pattern, (...match) => {
      applied += 1;
      return insert(...match);
    });
    if (applied !== 1) throw new Error('this version of pdf.js cannot be capped (' + pattern + ')');
  }
  return import('data:text/javascript;base64,' + Buffer.from(source).toString('base64'));
}

async function parse() {
  const pdfjs = await cappedPdfjs();
  await definePDFJSModule(() => Promise.resolve(pdfjs));
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
  (result) => parentPort.postMessage(tooLarge ? { ok: false, reason: workerData.tooLarge } : { ok: true, ...result }),
  (error) => parentPort.postMessage({ ok: false, reason: tooLarge ? workerData.tooLarge : error instanceof Error ? error.message : String(error) }),
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
    return (await withParseSlot(() => parseInWorker(filePath))).text;
  } catch (error) {
    const reason = reasonOf(error);
    throw new UnreadableUploadError(
      reason === TOO_LARGE
        ? `The PDF could not be read: its compressed content expands beyond what an upload may unpack (${readableSize(PDF_MAX_STREAM_BYTES)} in one part, ${readableSize(PDF_MAX_DECODED_BYTES)} in all).`
        : `The PDF could not be read: ${reason}`,
    );
  }
}

function parseInWorker(filePath: string): Promise<{ pages: number; text: string[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Resolved here so the worker loads the same unpdf as this module, whatever its directory.
      workerData: {
        filePath,
        unpdfPath: require.resolve('unpdf'),
        pdfjsPath: path.join(path.dirname(require.resolve('unpdf')), 'pdfjs.mjs'),
        maxStreamBytes: PDF_MAX_STREAM_BYTES,
        maxDecodedBytes: PDF_MAX_DECODED_BYTES,
        tooLarge: TOO_LARGE,
      },
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
