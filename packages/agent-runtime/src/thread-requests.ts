import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';

/** What a thread posts back for each request: its id, then its result's fields or why it failed. */
type ThreadReply<Result extends object> = { id: number } & (
  ({ ok: true } & Result) | { ok: false; message: string }
);

interface ThreadOptions {
  /** The thread's code: plain JavaScript, answering each `{id, …}` with one `ThreadReply`. */
  source: string;
  /** Its workerData, read each time a thread starts (a restarted thread may need newer data). */
  workerData: () => object;
  resourceLimits?: ResourceLimits;
  /** The error that requests waiting on a thread that died (a crash, a heap limit) fail with. */
  crashMessage: string;
}

interface Pending {
  resolve: (reply: object) => void;
  reject: (error: Error) => void;
}

/**
 * Requests to a worker thread, each answered by one reply: the plumbing shared by the SQL engine
 * (sqlite-worker.ts) and the search graphs' threads (graph-threads.ts). The thread starts with
 * the first request and again after it stopped; it keeps the process alive only while a request
 * waits. The threads' code is plain JavaScript in a string so the same code runs from dist/ and
 * from the TypeScript sources under jest.
 */
export class ThreadRequests<Result extends object> {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: ThreadOptions) {}

  /** Sends `request` (with `transfer` handed over, not copied); resolves with the reply's fields. */
  call(request: object, transfer: Transferable[] = []): Promise<Result> {
    const worker = (this.worker ??= this.start());
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const settled = () => {
        this.pending.delete(id);
        if (this.pending.size === 0) worker.unref();
      };
      this.pending.set(id, {
        resolve: (reply) => {
          settled();
          resolve(reply as Result);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ id, ...request }, transfer);
    });
  }

  /** A message that needs no reply (dropped when no thread is running). */
  tell(message: object): void {
    this.worker?.postMessage(message);
  }

  /** Stops the thread, failing whatever waits with `reason`; the next request starts a new one. */
  async stop(reason = new Error(this.options.crashMessage)): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(reason);
    await worker?.terminate();
  }

  private start(): Worker {
    const { source, workerData, resourceLimits, crashMessage } = this.options;
    const worker = new Worker(source, { eval: true, workerData: workerData(), resourceLimits });
    worker.unref(); // an idle thread must not keep the process alive; requests ref it
    worker.on('message', (reply: ThreadReply<Result>) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(reply);
      else pending.reject(new Error(reply.message));
    });
    // A thread stopped on purpose has already failed its requests; these are for crashes.
    worker.on('error', (error: Error) => {
      if (this.worker === worker) this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(crashMessage));
    });
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of [...this.pending.values()]) pending.reject(error);
  }
}
