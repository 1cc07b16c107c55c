import { screen, within } from '@testing-library/react';
import { toast } from 'sonner';
import { expect } from 'vitest';
import type { Reply } from '../features/testing/render';
import { SERVER_UNREACHABLE } from '../lib/api';

/**
 * Waits for the sonner toast titled `title` and checks its description and style ('error' is the
 * destructive style of failures).
 */
export async function expectToast(
  title: string,
  description: string,
  type: 'error' | 'success',
): Promise<void> {
  const shown = (await screen.findByText(title, { exact: true })).closest<HTMLElement>(
    '[data-sonner-toast]',
  );
  if (!shown) throw new Error(`"${title}" is not inside a toast`);
  expect(shown).toHaveAttribute('data-type', type);
  expect(within(shown).getByText(description, { exact: true })).toBeInTheDocument();
}

/**
 * For afterEach: sonner keeps its toasts in a module-wide store and replays the active ones to
 * the next <Toaster>, so without this one test's toasts would show up in the next test.
 */
export function dismissAllToasts(): void {
  toast.dismiss();
}

const SERVER_DETAIL = 'Too many attempts for this account. Try again in 15 minutes.';

/**
 * The ways an auth call fails, each with the toast text it must produce: the server's own
 * `detail`, the screen's fallback when there is none (an empty 500), and "Can't reach the
 * server" when no answer came at all — never a fallback that blames the user's input.
 */
export function failures(fallback: string): [name: string, reply: () => Reply, text: string][] {
  return [
    [
      'a 401 with a detail',
      () => ({ status: 401, json: { detail: SERVER_DETAIL } }),
      SERVER_DETAIL,
    ],
    ['an empty 500', () => ({ status: 500 }), fallback],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch')), SERVER_UNREACHABLE],
  ];
}
