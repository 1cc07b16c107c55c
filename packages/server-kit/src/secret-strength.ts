import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { z } from 'zod';

export const PREDICTABLE_SECRET =
  'is too predictable; use 32+ random characters, e.g. the output of openssl rand -base64 32';

/**
 * Bits of a secret by its own character frequencies (Shannon): 32 spaces or one letter repeated
 * hold none, 32 random hex characters about 120. A length rule alone let `' '.repeat(32)` through.
 */
export function estimatedBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...secret].length;
  let bits = 0;
  for (const count of counts.values()) bits -= count * Math.log2(count / length);
  return bits;
}

/** Shannon bits a secret needs: 32 random hex characters hold about 120, base64 more. */
const MIN_BITS = 96;
/**
 * zxcvbn's guesses a secret needs, as a power of ten (about 66 bits). zxcvbn counts ten guesses
 * per character it cannot explain, so 32 random hex characters score 27 to 32 (5,000 drawn, the
 * lowest 26.7); `0123456789abcdef` three times scores 4.7, `password` five times 8.7.
 */
const MIN_GUESSES_LOG10 = 20;

/**
 * zxcvbn's pattern matchers (repeats, sequences, dates, keyboard-free brute force) without its
 * word lists: those hold 7 MB in every process for passwords people choose, and a generated secret
 * is not one. Made on first use: only the configuration is checked.
 */
let estimator: ZxcvbnFactory | undefined;

/**
 * Why a secret is predictable, or null when it looks random: too few bits by its character
 * frequencies (one character repeated), a repeated unit covering half of it or more (`password`
 * five times: its frequencies alone look varied), or a sequence or other pattern zxcvbn explains
 * with few guesses (`0123456789abcdef`, `abcdef…`).
 */
export function isPredictableSecret(secret: string): boolean {
  if (estimatedBits(secret) < MIN_BITS) return true;
  estimator ??= new ZxcvbnFactory({});
  const result = estimator.check(secret);
  const repeated = result.sequence
    .filter((match) => match.pattern === 'repeat')
    .reduce((sum, match) => sum + match.token.length, 0);
  return repeated * 2 >= secret.length || result.guessesLog10 < MIN_GUESSES_LOG10;
}

/** A shared secret setting: 32+ characters that look random (`openssl rand -base64 32`). */
export const ZRandomSecret = z
  .string()
  .min(32, { error: 'must be at least 32 characters' })
  .refine((value) => !isPredictableSecret(value), { error: PREDICTABLE_SECRET });
