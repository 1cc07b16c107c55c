import { useEffect, useState } from 'react';

/**
 * Cycles through `phrases`, one step every `intervalMs` (the hero phrase,
 * docs/product.md#public-pages). While `paused` the current phrase stays; on resume the next step
 * comes a full interval later.
 */
export function useRotatingPhrase<T>(
  phrases: readonly T[],
  intervalMs: number,
  paused: boolean,
): T {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % phrases.length), intervalMs);
    return () => clearInterval(timer);
  }, [phrases.length, intervalMs, paused]);
  return phrases[index % phrases.length] as T;
}
