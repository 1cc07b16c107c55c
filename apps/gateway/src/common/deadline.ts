/**
 * Bounds how long the gateway waits on something outside it (Redis, DNS): `work` settles
 * normally, or `timedOut()` is thrown after `ms`. The timer is always cleared.
 */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  timedOut: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * BullMQ's close() waits for Redis; with Redis away it would wait forever and hold up shutdown.
 * Nothing is lost by giving up: the connection is being torn down anyway.
 */
export async function closeWithin(closing: Promise<void>, ms: number): Promise<void> {
  await withDeadline(closing, ms, () => new Error('close timed out')).catch(() => undefined);
}
