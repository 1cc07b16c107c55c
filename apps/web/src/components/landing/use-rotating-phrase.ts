import { useEffect, useState } from 'react';

/** Cycles through `phrases`, one step every `intervalMs` (SPEC §4: the hero phrase). */
export function useRotatingPhrase<T>(phrases: readonly T[], intervalMs: number): T {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % phrases.length), intervalMs);
    return () => clearInterval(timer);
  }, [phrases.length, intervalMs]);
  return phrases[index % phrases.length] as T;
}
