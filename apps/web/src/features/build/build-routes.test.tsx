import { buildPaths } from '@agentloom/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../App';
import { AuthProvider } from '../../auth/auth-context';
import { buildViewFixture } from '../testing/build-view';
import { mockFetch, signIn } from '../testing/render';

// The routes are protected, so a user is signed in, and a signed-in build screen opens the live
// feed: here a socket that never connects, so the screen reads the build over HTTP only.
vi.mock('socket.io-client', () => ({
  io: () => ({ on: () => undefined, emit: () => undefined, disconnect: () => undefined }),
}));

const SESSION = '3f6b2a1c-7d8e-4f90-a1b2-c3d4e5f6a7b8';

const building = buildViewFixture({ session_id: SESSION });

/** The whole app (its real route table, layout and lazy screens) at `path`. */
function renderApp(path: string) {
  signIn();
  const { calls } = mockFetch((call) =>
    call.path.startsWith('/builds/') ? { json: building } : { json: {} },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <App />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('build routes', () => {
  it('/build/rag without a session id uses the one the wizard stored', async () => {
    localStorage.setItem('session_id', SESSION);
    const calls = renderApp('/build/rag');
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain(buildPaths.view(SESSION));
  });

  it('/build/rag with no stored session id says it is missing', async () => {
    const calls = renderApp('/build/rag');
    expect(await screen.findByText('Session ID is missing.')).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/builds/'))).toBe(false);
  });

  it('/sql/build/animation/sql without a session id falls back the same way', async () => {
    localStorage.setItem('session_id', SESSION);
    renderApp('/sql/build/animation/sql');
    // The route decides the agent kind until the build answers: the stored agent is a RAG one.
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
  });

  it('/build/{type}/{sessionId} reads that session’s build', async () => {
    localStorage.setItem('session_id', 'an-older-session');
    const calls = renderApp(`/build/rag/${SESSION}`);
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain(buildPaths.view(SESSION));
  });

  it('/build/image still opens the image agent, not a build of type "image"', async () => {
    localStorage.setItem('session_id', SESSION);
    const calls = renderApp('/build/image');
    expect(
      await screen.findByRole('heading', { name: 'AI Image Generation Agent' }),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/builds/'))).toBe(false);
  });
});
