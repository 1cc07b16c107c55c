import { parentPort } from 'node:worker_threads';
import { inspectExcelHere, readExcelRecordsHere, type ExcelSummary } from './excel-parse';
import { UnsupportedUploadError } from './upload-errors';

/** One read excel.ts asks of this worker thread (a thread serves one read at a time). */
export interface ExcelJob {
  filePath: string;
  maxUncompressedBytes: number;
  mode: 'inspect' | 'records';
  sheet?: string;
}

/** To the thread: a read; after each batch, `more` or `stop` (the reader needs no more rows). */
export type ExcelWorkerRequest =
  { type: 'job'; job: ExcelJob } | { type: 'more' } | { type: 'stop' };

/** From the thread, for each read: a summary, or batches then the end; or an error. */
export type ExcelWorkerMessage =
  | { type: 'summary'; summary: ExcelSummary }
  | { type: 'batch'; records: Record<string, string>[] }
  | { type: 'end' }
  | { type: 'error'; unsupported: boolean; message: string };

/** Records a message carries; the thread waits for `more` after each, so nothing piles up. */
const BATCH_RECORDS = 500;

const requests: ExcelWorkerRequest[] = [];
let wake: (() => void) | undefined;

async function nextRequest(): Promise<ExcelWorkerRequest> {
  while (requests.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  return requests.shift()!;
}

async function run(job: ExcelJob, send: (message: ExcelWorkerMessage) => void): Promise<void> {
  if (job.mode === 'inspect') {
    send({
      type: 'summary',
      summary: await inspectExcelHere(job.filePath, job.maxUncompressedBytes),
    });
    return;
  }
  let batch: Record<string, string>[] = [];
  for await (const record of readExcelRecordsHere(
    job.filePath,
    job.maxUncompressedBytes,
    job.sheet,
  )) {
    batch.push(record);
    if (batch.length < BATCH_RECORDS) continue;
    send({ type: 'batch', records: batch });
    batch = [];
    if ((await nextRequest()).type === 'stop') break; // closes the workbook
  }
  if (batch.length > 0) {
    send({ type: 'batch', records: batch });
    await nextRequest(); // the reader's `more` or `stop`, before it is told the end
  }
  send({ type: 'end' });
}

async function serve(port: NonNullable<typeof parentPort>): Promise<void> {
  port.on('message', (request: ExcelWorkerRequest) => {
    requests.push(request);
    wake?.();
  });
  const send = (message: ExcelWorkerMessage) => port.postMessage(message);
  for (;;) {
    const request = await nextRequest();
    if (request.type !== 'job') continue;
    await run(request.job, send).catch((error: unknown) =>
      send({
        type: 'error',
        unsupported: error instanceof UnsupportedUploadError,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

if (parentPort) void serve(parentPort);
