import { DEFAULT_RETRIEVAL, retrievalPaths } from '@agentloom/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  historyFixture,
  publicationFixture,
  sourceFixture,
  sourcesFixture,
} from '../../features/testing/knowledge';
import { mockFetch, renderRoute, signIn, type Reply } from '../../features/testing/render';
import { AgentsView } from './agents-view';
import { statusTone } from './status-tone';

const RAG_AGENT = {
  id: '7c1e2f7a-3d5b-4c8e-9a10-000000000001',
  name: 'Support bot',
  description: 'RAG over faq.pdf',
  status: 'Built',
  type: 'rag',
  created_at: '2025-02-03T10:00:00.000Z',
};
const SQL_AGENT = {
  ...RAG_AGENT,
  id: '7c1e2f7a-3d5b-4c8e-9a10-000000000002',
  name: 'Sales analyst',
  type: 'sql',
};

describe('statusTone (badge colours)', () => {
  it('is green for Built, yellow for Building, red for Failed', () => {
    expect(statusTone('Built')).toBe('green');
    expect(statusTone('Building')).toBe('yellow');
    expect(statusTone('Failed')).toBe('red');
  });

  it('is grey for anything else', () => {
    expect(statusTone('Draft')).toBe('grey');
    expect(statusTone('built')).toBe('grey');
    expect(statusTone('')).toBe('grey');
  });
});

/** Lists the two agents and answers each preview start with `preview`. */
function renderAgents(preview: () => Reply) {
  const { calls } = mockFetch((call) => {
    if (call.path === '/pipelines') return { json: [RAG_AGENT, SQL_AGENT] };
    if (call.path.endsWith('/start')) return preview();
    return { status: 500, json: { detail: 'unexpected' } };
  });
  signIn();
  renderRoute('/dashboard', '/dashboard', <AgentsView onBack={() => {}} />);
  return { calls };
}

async function startPreview(name: string) {
  const user = userEvent.setup();
  const card = await screen.findByRole('article', { name });
  await user.click(within(card).getByRole('button', { name: 'Preview' }));
}

describe('AgentsView preview', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the server's detail once, inline, and no toast", async () => {
    renderAgents(() => ({ status: 409, json: { detail: 'The agent is not built yet.' } }));
    await startPreview('Support bot');
    expect(await screen.findByText('Preview failed: The agent is not built yet.')).toHaveAttribute(
      'role',
      'alert',
    );
    // The Toaster is mounted: a toast with the same words would be found here too.
    expect(screen.getAllByText('Preview failed: The agent is not built yet.')).toHaveLength(1);
  });

  it("falls back to the agent kind's message, and says when the server can't be reached", async () => {
    let offline = false;
    renderAgents(() => {
      if (offline) throw new TypeError('Failed to fetch');
      return { status: 500 };
    });
    await startPreview('Sales analyst');
    expect(
      await screen.findByText('Preview failed: Failed to start SQL agent preview.'),
    ).toHaveAttribute('role', 'alert');

    await startPreview('Support bot');
    expect(await screen.findByText('Preview failed: Failed to start preview.')).toHaveAttribute(
      'role',
      'alert',
    );

    offline = true;
    await startPreview('Support bot');
    expect(await screen.findByText("Preview failed: Can't reach the server")).toHaveAttribute(
      'role',
      'alert',
    );
  });

  it('opens the preview in the shared sandboxed frame', async () => {
    const { calls } = renderAgents(() => ({
      json: { preview_url: 'http://127.0.0.1:9/p/token/' },
    }));
    await startPreview('Sales analyst');
    const frame = await screen.findByTitle('Preview of Sales analyst');
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      path: `/sql/previews/previews/${SQL_AGENT.id}/start`,
    });
    // Framed through the app's own origin (which forwards /p/ to the gateway), whatever host
    // the link names: the preview page lets only its own origin frame it.
    expect(frame).toHaveAttribute('src', `${window.location.origin}/p/token/?theme=light`);
    expect(frame).toHaveAttribute(
      'sandbox',
      'allow-scripts allow-same-origin allow-forms allow-popups allow-downloads allow-top-navigation-by-user-activation',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a RAG agent’s card: knowledge and which build visitors see', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says "Visitors see build 1 of 2" and opens the Knowledge panel of RAG agents only', async () => {
    mockFetch((call) => {
      if (call.path === '/pipelines') return { json: [RAG_AGENT, SQL_AGENT] };
      if (call.path === `/agents/${RAG_AGENT.id}/publication`) {
        return {
          json: publicationFixture({
            published: true,
            build_id: historyFixture(1).build_id,
            build_number: 1,
            latest_build_id: historyFixture(2).build_id,
            latest_build_number: 2,
          }),
        };
      }
      if (call.path.endsWith('/publication')) return { json: publicationFixture() };
      if (call.path === retrievalPaths.settings(RAG_AGENT.id)) {
        const settings = { ...DEFAULT_RETRIEVAL, answer_only_from_sources: true };
        return {
          json: { settings, built: settings, build_needed: false, reembeds_everything: false },
        };
      }
      if (call.path === `/agents/${RAG_AGENT.id}/sources`) {
        return { json: sourcesFixture([sourceFixture({ name: 'faq.pdf', source_type: 'pdf' })]) };
      }
      return { status: 500, json: { detail: 'unexpected' } };
    });
    signIn();
    renderRoute('/dashboard', '/dashboard', <AgentsView onBack={() => {}} />);
    const card = await screen.findByRole('article', { name: 'Support bot' });
    expect(
      await within(card).findByText('Visitors see build 1 of 2 — publish build 2?'),
    ).toBeInTheDocument();
    const sql = screen.getByRole('article', { name: 'Sales analyst' });
    expect(within(sql).queryByRole('button', { name: /Knowledge/ })).not.toBeInTheDocument();
    expect(within(sql).queryByText(/Visitors see build/)).not.toBeInTheDocument();

    const user = userEvent.setup();
    const toggle = within(card).getByRole('button', { name: 'Knowledge of Support bot' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const sources = await within(card).findByRole('list', { name: 'Sources of Support bot' });
    expect(within(sources).getByRole('listitem', { name: 'faq.pdf' })).toHaveTextContent('Ready');

    // And how it finds answers: its retrieval settings and test, for Built RAG agents only.
    expect(within(sql).queryByRole('button', { name: /finds answers/ })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'How Support bot finds answers' }));
    expect(await within(card).findByLabelText('Test a question')).toBeInTheDocument();
    expect(within(card).getByRole('radio', { name: /Both \(recommended\)/ })).toBeChecked();
  });
});
