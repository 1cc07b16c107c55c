/**
 * How many heavy parses (a PDF, a workbook: each a worker thread with its own heap) this process
 * runs at once; the others wait their turn, first come first served. Each parse may hold a few
 * hundred MB, so the bound is on memory as much as on cores. The gateway sets it from
 * PARSE_MAX_CONCURRENT; the worker process keeps the default (its builds are bounded already).
 */
let limit = 2;
let running = 0;
const waiting: (() => void)[] = [];

export function setParseConcurrency(parses: number): void {
  if (!Number.isInteger(parses) || parses < 1) throw new RangeError('parses must be 1 or more');
  limit = parses;
  while (running < limit && waiting.length > 0) start(waiting.shift()!);
}

/** Parses running and waiting in this process, for tests and benchmarks. */
export function parseSlotsInUse(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

/** Runs `parse` once a slot is free, and frees the slot when it settles. */
export async function withParseSlot<T>(parse: () => Promise<T>): Promise<T> {
  await new Promise<void>((resolve) => {
    if (running < limit) start(resolve);
    else waiting.push(resolve);
  });
  try {
    return await parse();
  } finally {
    running -= 1;
    const next = waiting.shift();
    if (next) start(next);
  }
}

function start(resume: () => void): void {
  running += 1;
  resume();
}
