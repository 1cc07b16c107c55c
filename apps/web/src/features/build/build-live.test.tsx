import {
  BUILD_EVENTS,
  BUILD_STAGE_LABELS,
  buildPaths,
  RAG_BUILD_STAGES,
  type TBuildStageEvent,
  type TBuildSubscribeAck,
  type TBuildView,
} from '@agentloom/contracts';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_URL } from '../../lib/api';
import { deferred, mockFetch, renderRoute, signIn, type Call, type Reply } from '../testing/render';
import { quietAgentSide } from '../testing/knowledge';
import { buildViewFixture, FIXTURE_AT, stagesReached } from '../testing/build-view';
import { BuildPage } from './build-page';

type Handler = (...args: never[]) => void;

/**
 * socket.io-client's `io`, replaced by a socket the test plays the gateway's side of: it
 * records what the screen sends and delivers the events the gateway would push.
 */
const { sockets, FakeSocket } = vi.hoisted(() => {
  class FakeSocket {
    readonly handlers = new Map<string, Handler>();
    readonly sent: { event: string; payload: unknown }[] = [];
    disconnected = false;
    ack: TBuildSubscribeAck = { ok: true };

    constructor(
      readonly url: string,
      readonly options: unknown,
    ) {}

    on(event: string, handler: Handler) {
      this.handlers.set(event, handler);
      return this;
    }

    emit(event: string, payload: unknown, reply?: (ack: TBuildSubscribeAck) => void) {
      this.sent.push({ event, payload });
      if (event === BUILD_EVENTS.subscribe) reply?.(this.ack);
      return this;
    }

    disconnect() {
      this.disconnected = true;
      return this;
    }

    /** The gateway pushes `event` (or the client library reports connect/disconnect). */
    async push(event: string, payload?: unknown) {
      const handler = this.handlers.get(event) as ((payload: unknown) => void) | undefined;
      if (!handler) throw new Error(`The screen does not listen to ${event}.`);
      // react-query hands cache changes to the screen on a zero timeout: let that one pass.
      await act(async () => {
        handler(payload);
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
    }
  }
  return { sockets: [] as FakeSocket[], FakeSocket };
});

vi.mock('socket.io-client', () => ({
  io: (url: string, options: unknown) => {
    const socket = new FakeSocket(url, options);
    sockets.push(socket);
    return socket;
  },
}));

const SESSION = '6c2b9f4e-1a3d-4e5f-8a7b-9c0d1e2f3a4b';
const BUILD = '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f';

const view = (overrides: Partial<TBuildView> = {}) =>
  buildViewFixture({ build_id: BUILD, session_id: SESSION, ...overrides });

const stageEvent = (index: number, state: 'started' | 'finished'): TBuildStageEvent => ({
  session_id: SESSION,
  buildId: BUILD,
  stage: RAG_BUILD_STAGES[index]!,
  index,
  total: RAG_BUILD_STAGES.length,
  state,
  at: FIXTURE_AT,
});

const isBuildRead = (call: Call) => call.path === buildPaths.view(SESSION);
const buildReads = (calls: Call[]) => calls.filter(isBuildRead).length;

function renderLive(reply: (call: Call) => Reply) {
  signIn();
  // The sources and publication beside the build are not what these tests are about.
  const mocked = mockFetch((call) => quietAgentSide(call) ?? reply(call));
  const rendered = renderRoute(
    `/build/rag/${SESSION}`,
    '/build/:type/:sessionId',
    <BuildPage flavor="rag" />,
  );
  const socket = sockets.at(-1);
  if (!socket) throw new Error('The build screen opened no socket.');
  return { ...mocked, ...rendered, socket };
}

const progress = () => screen.getByRole('progressbar', { name: 'Build progress' });
const stageItem = (name: string) =>
  within(screen.getByRole('list', { name: 'Build stages' }))
    .getByText(name)
    .closest('li');

afterEach(() => {
  sockets.length = 0;
  vi.unstubAllGlobals();
});

describe('live build feed', () => {
  it('subscribes with the token, then follows the snapshot, each stage and the end', async () => {
    // GET /builds answers the first read at once; everything after it comes from the feed, and
    // a later read waits until the test lets it answer.
    const later = deferred<{ json: TBuildView }>();
    let reads = 0;
    const { socket, calls } = renderLive((call) =>
      !isBuildRead(call)
        ? { json: {} }
        : reads++ === 0
          ? { json: view({ stages: stagesReached(1, false) }) }
          : later.promise,
    );
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    expect(socket.url).toBe(`${API_URL}/builds`);
    expect(socket.options).toEqual({ auth: { token: 'test-token' }, transports: ['websocket'] });
    expect(screen.getByText('Updating')).toBeInTheDocument();

    await socket.push('connect');
    expect(socket.sent).toEqual([
      { event: BUILD_EVENTS.subscribe, payload: { sessionId: SESSION } },
    ]);
    expect(screen.getByText('Live')).toBeInTheDocument();

    // The snapshot: two stages done, the third running — 2 of 7 steps.
    await socket.push(BUILD_EVENTS.snapshot, {
      session_id: SESSION,
      build: view({ stages: stagesReached(3, false) }),
    });
    expect(progress()).toHaveAttribute('aria-valuenow', '29');
    expect(stageItem('training embeddings')).toHaveTextContent('(done)');
    expect(stageItem('setting up databases')).toHaveAttribute('aria-current', 'step');

    await socket.push(BUILD_EVENTS.stage, stageEvent(2, 'finished'));
    await socket.push(BUILD_EVENTS.stage, stageEvent(3, 'started'));
    expect(stageItem('setting up databases')).toHaveTextContent('(done)');
    expect(stageItem('integrating AI models')).toHaveTextContent('(in progress)');
    expect(progress()).toHaveAttribute('aria-valuenow', '43');

    await socket.push(BUILD_EVENTS.completed, {
      session_id: SESSION,
      build_id: BUILD,
      download_url: buildPaths.download('rag', SESSION),
    });
    expect(screen.getByRole('heading', { name: 'Build Completed' })).toBeInTheDocument();
    expect(progress()).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('button', { name: 'Preview' })).toBeInTheDocument();
    // The end makes the screen read the build again; an answer read before the end (still
    // Building) must not take the screen back.
    await vi.waitFor(() => expect(buildReads(calls)).toBe(2));
    await act(async () => {
      later.resolve({ json: view({ stages: stagesReached(4, false) }) });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByRole('heading', { name: 'Build Completed' })).toBeInTheDocument();
    expect(progress()).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows the reason the feed reports when the build fails', async () => {
    const { socket } = renderLive(() => ({ json: view({ stages: stagesReached(2, false) }) }));
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    await socket.push('connect');
    await socket.push(BUILD_EVENTS.failed, {
      session_id: SESSION,
      build_id: BUILD,
      error: 'The saved API key this agent uses was deleted; choose another key.',
    });
    expect(screen.getByRole('heading', { name: 'Build Failed' })).toBeInTheDocument();
    expect(
      screen.getByText('The saved API key this agent uses was deleted; choose another key.'),
    ).toBeInTheDocument();
    expect(stageItem('training embeddings')).toHaveTextContent('(failed)');
  });

  it('reads the build when a stage arrives before the screen has one', async () => {
    let answer: Reply = { status: 404, json: { detail: 'This agent has not been built yet.' } };
    const { socket } = renderLive(() => answer);
    expect(await screen.findByText('This agent has not been built yet.')).toBeInTheDocument();
    await socket.push('connect');
    await socket.push(BUILD_EVENTS.snapshot, { session_id: SESSION, build: null });

    answer = { json: view({ stages: stagesReached(1, false) }) };
    await socket.push(BUILD_EVENTS.stage, stageEvent(0, 'started'));
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    expect(stageItem('initializing environment')).toHaveTextContent('(in progress)');
  });

  it('says so when the feed drops or refuses, and closes it when the screen goes', async () => {
    const { socket, unmount } = renderLive(() => ({
      json: view({ stages: stagesReached(1, false) }),
    }));
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    await socket.push('connect');
    expect(screen.getByText('Live')).toBeInTheDocument();
    await socket.push('disconnect');
    expect(screen.getByText('Updating')).toBeInTheDocument();

    socket.ack = { ok: false, detail: 'Agent not found.' };
    await socket.push('connect');
    expect(screen.getByText('Updating')).toBeInTheDocument();

    unmount();
    expect(socket.disconnected).toBe(true);
  });
});

describe('a reworded stage label', () => {
  // Rows and events carry stage keys; the label is display only. Reword one (as an edit of
  // contracts' BUILD_STAGE_LABELS would) and a stored row and the live feed still drive the screen.
  const original = BUILD_STAGE_LABELS.train_embeddings;
  afterEach(() => {
    BUILD_STAGE_LABELS.train_embeddings = original;
  });

  it('shows the new words for a stored build and for live events', async () => {
    BUILD_STAGE_LABELS.train_embeddings = 'reading and embedding your data';
    // The stored row as the worker wrote it: keys only (what GET /builds and the snapshot send).
    const stored = view({
      stages: [
        { key: 'validate_config', started_at: FIXTURE_AT, finished_at: FIXTURE_AT },
        { key: 'train_embeddings', started_at: FIXTURE_AT, finished_at: null },
      ],
    });
    const { socket } = renderLive(() => ({ json: stored }));
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    expect(stageItem('reading and embedding your data')).toHaveAttribute('aria-current', 'step');
    expect(screen.queryByText(original)).not.toBeInTheDocument();
    expect(
      screen.getByText(/Reading your data source, splitting it into chunks/),
    ).toBeInTheDocument();

    await socket.push('connect');
    await socket.push(BUILD_EVENTS.stage, stageEvent(1, 'finished'));
    await socket.push(BUILD_EVENTS.stage, stageEvent(2, 'started'));
    expect(stageItem('reading and embedding your data')).toHaveTextContent('(done)');
    expect(stageItem('setting up databases')).toHaveTextContent('(in progress)');
    expect(progress()).toHaveAttribute('aria-valuenow', '29');
  });
});
