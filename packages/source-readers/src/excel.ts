import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExcelSummary } from './excel-parse';
import type { ExcelJob, ExcelWorkerMessage, ExcelWorkerRequest } from './excel-worker';
import { acquireParseSlot, parsingLimits } from './parse-slots';
import { UnreadableUploadError, UnsupportedUploadError } from './upload-errors';

/*
 * Workbooks are read in worker threads (excel-worker.ts), each read in a parse slot of this process
 * (parse-slots.ts): ExcelJS' XML parsing is CPU-bound and would hold a server's event loop (a
 * workbook of 171 MB of shared strings held the gateway's for seconds), and the shared strings
 * live in memory, which the thread's heap limit caps: a workbook that needs more is refused.
 *
 * Loading ExcelJS costs a thread about half a second, so threads that finished a read wait a
 * little for the next one (at most one per slot, IDLE_MS). A thread that failed is not reused.
 *
 * The thread runs the compiled dist/excel-worker.js, also when these sources run under jest:
 * build the package after changing the readers (turbo builds it before every test run).
 */
const WORKER_FILE = path.resolve(__dirname, '..', 'dist', 'excel-worker.js');
const IDLE_MS = 30_000;

/** Sheet names and the first sheet's header and data-row count. */
export async function inspectExcel(
  filePath: string,
  maxUncompressedBytes: number,
): Promise<ExcelSummary> {
  const release = await acquireParseSlot();
  const read = new WorkbookRead({ filePath, maxUncompressedBytes, mode: 'inspect' });
  try {
    const message = await read.next();
    if (message.type !== 'summary') throw new Error('the workbook reader stopped unexpectedly');
    read.done();
    return message.summary;
  } finally {
    read.close();
    release();
  }
}

/**
 * The data rows of one sheet (the first, unless named) as records keyed by the header row's
 * trimmed texts (empty header cells named like pandas names them, `Unnamed: 3`), streamed
 * through the zip-bomb guard. The thread reads one batch ahead of the caller, no more.
 */
export async function* readExcelRecords(
  filePath: string,
  maxUncompressedBytes: number,
  sheet?: string,
): AsyncGenerator<Record<string, string>> {
  const release = await acquireParseSlot();
  const read = new WorkbookRead({ filePath, maxUncompressedBytes, mode: 'records', sheet });
  try {
    for (;;) {
      const message = await read.next();
      if (message.type === 'end') return read.done();
      if (message.type !== 'batch') throw new Error('the workbook reader stopped unexpectedly');
      yield* message.records;
      read.send({ type: 'more' });
    }
  } finally {
    await read.stop();
    release();
  }
}

const idle: Worker[] = [];

/** One read on a worker thread: its messages as a queue, its failures as upload errors. */
class WorkbookRead {
  private readonly worker: Worker;
  private readonly queue: ExcelWorkerMessage[] = [];
  private failure?: Error;
  private waiting?: { resolve: (message: ExcelWorkerMessage) => void; reject: (e: Error) => void };
  private finished = false;
  private readonly heapMb = parsingLimits().workbookHeapMb;
  private readonly onMessage = (message: ExcelWorkerMessage) => {
    if (message.type === 'error') this.fail(uploadError(message));
    else if (this.waiting) this.settle(message);
    else this.queue.push(message);
  };
  private readonly onError = (error: Error & { code?: string }) => {
    this.finished = false; // a thread that failed is never reused
    this.fail(
      new UnreadableUploadError(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `The workbook could not be read: it needs more than the ${this.heapMb} MB of memory a workbook may use here. Save its sheets as separate, smaller workbooks, or as CSV.`
          : `The workbook could not be read: ${error.message}`,
      ),
    );
  };
  private readonly onExit = () => {
    this.finished = false;
    this.fail(new UnreadableUploadError('The workbook could not be read: the reader stopped.'));
  };

  constructor(job: ExcelJob) {
    this.worker = idle.pop() ?? startWorker(this.heapMb);
    this.worker.ref(); // a read in progress keeps the process alive; an idle thread does not
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.send({ type: 'job', job });
  }

  send(request: ExcelWorkerRequest): void {
    this.worker.postMessage(request);
  }

  next(): Promise<ExcelWorkerMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** The thread finished this read cleanly (its answer, or its end): it may serve another. */
  done(): void {
    this.finished = !this.failure;
  }

  /** Ends a read the caller left early: the thread closes the workbook and says so. */
  async stop(): Promise<void> {
    if (!this.finished && !this.failure) {
      this.send({ type: 'stop' });
      const last = await this.next().catch(() => undefined);
      this.finished = last?.type === 'end';
    }
    this.close();
  }

  close(): void {
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    if (this.finished && idle.length < parsingLimits().concurrent) {
      this.worker.unref();
      idle.push(this.worker);
      setTimeout(() => retire(this.worker), IDLE_MS).unref();
    } else {
      void this.worker.terminate();
    }
  }

  private settle(message: ExcelWorkerMessage): void {
    const waiting = this.waiting!;
    this.waiting = undefined;
    waiting.resolve(message);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.failure);
  }
}

function startWorker(heapMb: number): Worker {
  if (!existsSync(WORKER_FILE)) {
    throw new Error(`${WORKER_FILE} is missing: build @agentloom/source-readers first.`);
  }
  return new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

/** An idle thread that was not picked up in time is ended. */
function retire(worker: Worker): void {
  const index = idle.indexOf(worker);
  if (index === -1) return;
  idle.splice(index, 1);
  void worker.terminate();
}

function uploadError(message: Extract<ExcelWorkerMessage, { type: 'error' }>): Error {
  return message.unsupported
    ? new UnsupportedUploadError(message.message)
    : new UnreadableUploadError(message.message);
}
