import {
  buildPaths,
  RAG_BUILD_STAGES,
  SQL_BUILD_STAGES,
  type TBuildView,
} from '@agentloom/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, type Call, type Reply } from '../testing/render';
import { quietAgentSide } from '../testing/knowledge';
import { buildViewFixture, stagesReached } from '../testing/build-view';
import { BuildPage } from './build-page';

// No token is stored, so the screen reads the build over HTTP only (the live socket needs one).
const SESSION = '9a0f3c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

const buildView = (overrides: Partial<TBuildView> = {}) =>
  buildViewFixture({ session_id: SESSION, ...overrides });

function renderBuild(path = `/build/rag/${SESSION}`, reply: (call: Call) => Reply) {
  // The sources and publication beside the build are not what these tests are about.
  const mocked = mockFetch((call) => quietAgentSide(call) ?? reply(call));
  const flavor = path.startsWith('/sql') ? 'sql' : 'rag';
  const route =
    flavor === 'sql' ? '/sql/build/animation/:type/:sessionId' : '/build/:type/:sessionId';
  renderRoute(path, route, <BuildPage flavor={flavor} />);
  return mocked;
}

afterEach(() => vi.restoreAllMocks());

describe('build screen', () => {
  it('shows the real stages and the progress of the stage reached', async () => {
    renderBuild(undefined, () => ({
      json: buildView({ stages: stagesReached(3, false, RAG_BUILD_STAGES) }),
    }));
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();
    // Stage 3 of 8 (index 2 of 7) is running: 2/7 = 29 %.
    expect(screen.getByRole('progressbar', { name: 'Build progress' })).toHaveAttribute(
      'aria-valuenow',
      '29',
    );
    const list = screen.getByRole('list', { name: 'Build stages' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(8);
    expect(within(list).getByText('setting up databases').closest('li')).toHaveAttribute(
      'aria-current',
      'step',
    );
    expect(screen.getByText('Preparing the vector store settings…')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('shows the ten SQL stages on the animation screen', async () => {
    renderBuild(`/sql/build/animation/sql/${SESSION}`, () => ({
      json: buildView({
        agent_type: 'sql',
        stage_keys: [...SQL_BUILD_STAGES],
        stages: stagesReached(4, true, SQL_BUILD_STAGES),
      }),
    }));
    expect(await screen.findByText('Building your SQL agent')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('progressbar', { name: 'Build progress' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
  });

  it('offers Preview, Download Code and Back to Dashboard once Built', async () => {
    const { calls } = renderBuild(undefined, (call) =>
      call.path.includes('/previews/')
        ? { status: 404, json: { detail: 'Not found.' } }
        : {
            json: buildView({
              status: 'Built',
              stages: stagesReached(8, true, RAG_BUILD_STAGES),
              download_url: buildPaths.download('rag', SESSION),
            }),
          },
    );
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Build Completed' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Build progress' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(screen.getByRole('button', { name: 'Download Code' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );

    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('Preview failed: Not found.')).toBeInTheDocument();
    expect(screen.getByText('Preview unavailable')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: `/rag/previews/${SESSION}/start` });
  });

  it('embeds a started SQL preview in a full-width frame 80% of the viewport high', async () => {
    const { calls } = renderBuild(`/sql/build/animation/sql/${SESSION}`, (call) =>
      call.path.includes('/previews/')
        ? { json: { preview_url: 'http://127.0.0.1:7860/' } }
        : {
            json: buildView({
              agent_type: 'sql',
              status: 'Built',
              stage_keys: [...SQL_BUILD_STAGES],
              stages: stagesReached(10, true, SQL_BUILD_STAGES),
            }),
          },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Preview' }));
    const frame = await screen.findByTitle('SQL Agent Preview');
    // The preview opens in the app's theme (light here).
    expect(frame).toHaveAttribute('src', 'http://127.0.0.1:7860/?theme=light');
    expect(frame).toHaveClass('w-full', 'h-[80vh]');
    expect(frame).toHaveAttribute('sandbox', expect.stringContaining('allow-scripts'));
    // Full width: nothing around the frame caps its width (a PageContainer would, at max-w-7xl).
    for (let box = frame.parentElement; box; box = box.parentElement) {
      expect(box.className).not.toMatch(/max-w-/);
    }
    expect(screen.getByRole('button', { name: 'Download Code' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument();
    expect(calls.at(-1)?.path).toBe(`/sql/previews/previews/${SESSION}/start`);
    // An owner who likes what they see publishes from here.
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('downloads the zip as {type}-agent-{sessionId}.zip', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    // jsdom has no object URLs; the browser's would point at the downloaded blob.
    URL.createObjectURL = vi.fn(() => 'blob:zip');
    URL.revokeObjectURL = vi.fn();
    const { calls } = renderBuild(undefined, () => ({
      json: buildView({ status: 'Built', stages: stagesReached(8, true, RAG_BUILD_STAGES) }),
    }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download Code' }));
    await vi.waitFor(() => expect(saved).toEqual([`rag-agent-${SESSION}.zip`]));
    expect(calls.at(-1)).toMatchObject({
      method: 'GET',
      path: buildPaths.download('rag', SESSION),
    });
  });

  it('shows why a build failed', async () => {
    renderBuild(undefined, () => ({
      json: buildView({
        status: 'Failed',
        stages: stagesReached(2, false, RAG_BUILD_STAGES),
        error: 'The uploaded source file is missing; upload it again.',
      }),
    }));
    expect(await screen.findByRole('heading', { name: 'Build Failed' })).toBeInTheDocument();
    expect(
      screen.getByText('The uploaded source file is missing; upload it again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Build again' })).toBeInTheDocument();
  });

  it('shows the server’s answer when there is no build', async () => {
    renderBuild(undefined, () => ({
      status: 404,
      json: { detail: 'This agent has not been built yet.' },
    }));
    expect(await screen.findByText('This agent has not been built yet.')).toBeInTheDocument();
  });
});

describe('build screen without the live feed', () => {
  // Only the intervals are faked: the polling is react-query's refetchInterval.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('keeps asking after a 404 until the build exists, follows it, and stops once Built', async () => {
    let answer: Reply = { status: 404, json: { detail: 'This agent has not been built yet.' } };
    const { calls } = renderBuild(undefined, () => answer);
    expect(await screen.findByText('This agent has not been built yet.')).toBeInTheDocument();

    answer = { json: buildView({ stages: stagesReached(1, false, RAG_BUILD_STAGES) }) };
    vi.advanceTimersByTime(2_000);
    expect(await screen.findByText('Building your RAG agent')).toBeInTheDocument();

    answer = {
      json: buildView({ status: 'Built', stages: stagesReached(8, true, RAG_BUILD_STAGES) }),
    };
    vi.advanceTimersByTime(2_000);
    expect(await screen.findByRole('heading', { name: 'Build Completed' })).toBeInTheDocument();

    // Nothing is left to wait for, so the screen stops asking.
    const asked = calls.length;
    vi.advanceTimersByTime(20_000);
    expect(calls).toHaveLength(asked);
  });
});
