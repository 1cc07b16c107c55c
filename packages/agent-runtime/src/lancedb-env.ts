import { availableParallelism } from 'node:os';

// LanceDB's native code reads these once, when it is loaded: lancedb.ts imports this file first.

// It logs at "warn" by default, including routine notes such as "No existing dataset at …, it
// will be created" for every new index. Quiet unless the operator asked for more.
process.env.LANCEDB_LOG ??= 'error';

// Its searches run on a pool of threads, one per core by default. Under load they would take
// every core from the event loop, which then answers nothing else (/health included) until they
// finish: keep one core for it. An operator's own setting wins.
const searchThreads = String(Math.max(1, availableParallelism() - 1));
process.env.LANCE_CPU_THREADS ??= searchThreads;
process.env.TOKIO_WORKER_THREADS ??= searchThreads;
