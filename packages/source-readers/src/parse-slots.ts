/**
 * How many heavy parses (a PDF, a workbook: each a worker thread with its own heap) this process
 * runs at once; the others wait their turn, first come first served. Each parse may hold a few
 * hundred MB, so the bound is on memory as much as on cores. The gateway sets the limits from its
 * settings (PARSE_MAX_CONCURRENT, XLSX_PARSE_MAX_HEAP_MB); the builder worker keeps the defaults.
 */
const limits = { concurrent: 2, workbookHeapMb: 512 };
let running = 0;
const waiting: (() => void)[] = [];

export function configureParsing(settings: {
  /** Parses at once in this process. */
  concurrent?: number;
  /** Heap of a workbook's parse, in MB: a workbook that needs more is refused. */
  workbookHeapMb?: number;
}): void {
  for (const value of Object.values(settings)) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new RangeError('parse limits must be whole numbers of 1 or more');
    }
  }
  limits.concurrent = settings.concurrent ?? limits.concurrent;
  limits.workbookHeapMb = settings.workbookHeapMb ?? limits.workbookHeapMb;
  while (running < limits.concurrent && waiting.length > 0) start(waiting.shift()!);
}

export function parsingLimits(): Readonly<typeof limits> {
  return limits;
}

/** Parses running and waiting in this process. */
export function parseSlotsInUse(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

/** Waits for a free slot; the returned function frees it (once). */
export async function acquireParseSlot(): Promise<() => void> {
  await new Promise<void>((resolve) => {
    if (running < limits.concurrent) start(resolve);
    else waiting.push(resolve);
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    const next = waiting.shift();
    if (next) start(next);
  };
}

/** Runs `parse` once a slot is free, and frees the slot when it settles. */
export async function withParseSlot<T>(parse: () => Promise<T>): Promise<T> {
  const release = await acquireParseSlot();
  try {
    return await parse();
  } finally {
    release();
  }
}

function start(resume: () => void): void {
  running += 1;
  resume();
}
