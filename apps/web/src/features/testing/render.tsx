import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Toaster } from 'sonner';
import { vi } from 'vitest';
import { AuthProvider } from '../../auth/auth-context';

/**
 * Test helpers of the feature screens: the app's providers around one route, and a fake `fetch`
 * — the only thing replaced, so api.ts, react-query and the screens run as they do in the app.
 */

export function renderRoute(path: string, route: string, element: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <Routes>
            <Route path={route} element={element} />
            <Route path="*" element={<p>Elsewhere</p>} />
          </Routes>
          <Toaster />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

export type Call = { method: string; path: string; body: BodyInit | null | undefined };

/** An answer: a JSON body and status, or a promise of one (to hold a call in flight). */
export type Reply =
  { status?: number; json?: unknown } | Promise<{ status?: number; json?: unknown }>;

/**
 * Replaces `fetch`: `reply(call)` answers each request; every request is recorded in `calls`,
 * with its path (the app calls its own origin; relative URLs resolve against the page).
 */
export function mockFetch(reply: (call: Call) => Reply = () => ({ json: {} })) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, window.location.href);
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      body: init?.body,
    };
    calls.push(call);
    const answer = await reply(call);
    const status = answer.status ?? 200;
    return new Response(answer.json === undefined ? null : JSON.stringify(answer.json), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** The fields of a form-encoded request body. */
export function formOf(call: Call | undefined): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(textOf(call)));
}

/** A request body sent as text (JSON or form-encoded); '' for none or a binary body. */
export function textOf(call: Call | undefined): string {
  return typeof call?.body === 'string' ? call.body : '';
}

/** A promise settled from outside: keeps a call in flight until the test lets it finish. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export function signIn() {
  localStorage.setItem('token', 'test-token');
  localStorage.setItem(
    'user',
    JSON.stringify({ id: 'u1', username: 'ada', email: 'ada@example.com' }),
  );
}
