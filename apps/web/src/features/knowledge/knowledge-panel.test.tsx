import { knowledgePaths, type TKnowledgeSource } from '@agentloom/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, textOf, type Call, type Reply } from '../testing/render';
import {
  historyFixture,
  publicationFixture,
  sourceFixture,
  sourcesFixture,
} from '../testing/knowledge';
import { VisitorsNote } from '../publish/visitors-note';
import { KnowledgePanel } from './knowledge-panel';

const AGENT = '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const BUILD = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';

const primary = sourceFixture();
const table = sourceFixture({
  id: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
  kind: 'table',
  source_type: 'postgres',
  name: 'parts',
  primary: false,
  status: 'failed',
  error: 'The database refused the password.',
  chunks: 120,
  refresh: 'hourly',
  refreshable: true,
  last_change: '10 rows changed',
});

/**
 * A stand-in for the gateway's knowledge endpoints: it keeps the list, adds what is posted
 * (and starts a "build"), and answers a change the test wants refused with its detail.
 */
function knowledgeServer(start: TKnowledgeSource[], refuse?: (call: Call) => string | undefined) {
  const sources = [...start];
  let building: string | null = null;
  return (call: Call): Reply => {
    const refused = refuse?.(call);
    if (refused) return { status: 422, json: { detail: refused } };
    if (call.method === 'GET') return { json: sourcesFixture(sources, building) };
    if (call.method === 'POST' && call.path === knowledgePaths.list(AGENT)) {
      const url = (JSON.parse(textOf(call)) as { url?: string }).url ?? 'upload';
      const added = sourceFixture({
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        kind: 'web',
        name: url,
        primary: false,
        status: 'indexing',
        chunks: 0,
      });
      sources.push(added);
      building = BUILD;
      return { status: 201, json: added };
    }
    if (call.method === 'DELETE') {
      sources.splice(
        sources.findIndex((source) => call.path.endsWith(source.id)),
        1,
      );
      building = BUILD;
      return { status: 204 };
    }
    return { json: sources[0] };
  };
}

function renderPanel(reply: (call: Call) => Reply, where: 'my-agents' | 'build-screen') {
  const mocked = mockFetch(reply);
  renderRoute(
    '/panel',
    '/panel',
    <KnowledgePanel agentId={AGENT} agentName="Parts bot" where={where} />,
  );
  return mocked;
}

afterEach(() => vi.restoreAllMocks());

describe('Knowledge panel', () => {
  it('lists each source in plain words, with its error in place until fixed', async () => {
    renderPanel(knowledgeServer([primary, table]), 'my-agents');
    const list = await screen.findByRole('list', { name: 'Sources of Parts bot' });
    const first = within(list).getByRole('listitem', { name: 'sales.csv' });
    expect(first).toHaveTextContent('Ready');
    expect(first).toHaveTextContent('From the wizard');
    expect(first).toHaveTextContent('File · 6 passages · added');
    // The wizard's source is replaced, never removed.
    expect(within(first).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(
      within(first).getByRole('button', { name: 'Replace with a new version' }),
    ).toBeInTheDocument();

    const second = within(list).getByRole('listitem', { name: 'parts' });
    expect(second).toHaveTextContent('Could not be read');
    expect(second).toHaveTextContent('Database table (postgres) · 120 passages · 10 rows changed');
    expect(within(second).getByRole('alert')).toHaveTextContent(
      'The database refused the password.',
    );
    expect(within(second).getByLabelText('Refresh automatically')).toHaveValue('hourly');
  });

  it('adds web pages, says a new build started and links to its progress', async () => {
    const { calls } = renderPanel(knowledgeServer([primary]), 'my-agents');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add another source' }));
    const form = screen.getByRole('form', { name: 'Add another source' });
    await user.click(within(form).getByRole('button', { name: 'Web pages' }));
    await user.type(within(form).getByLabelText('Page address'), 'https://docs.example.com/');
    await user.clear(within(form).getByLabelText('Pages to read'));
    await user.type(within(form).getByLabelText('Pages to read'), '20');
    await user.click(within(form).getByRole('button', { name: 'Add source' }));

    const posted = calls.find((call) => call.method === 'POST');
    expect(JSON.parse(textOf(posted))).toEqual({
      kind: 'web',
      url: 'https://docs.example.com/',
      max_pages: 20,
    });
    expect(await screen.findByText('Source added.')).toBeInTheDocument();
    expect(await screen.findByText(/A new build started with your changes/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Watch its progress' })).toHaveAttribute(
      'href',
      `/build/rag/${AGENT}`,
    );
    const added = screen.getByRole('listitem', { name: 'https://docs.example.com/' });
    expect(added).toHaveTextContent('Reading');
  });

  it("keeps the server's detail in the form when a table cannot be added", async () => {
    const detail = 'Could not connect to the database: connection refused.';
    const { calls } = renderPanel(
      knowledgeServer([primary], (call) => (call.method === 'POST' ? detail : undefined)),
      'build-screen',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add another source' }));
    const form = screen.getByRole('form', { name: 'Add another source' });
    await user.click(within(form).getByRole('button', { name: 'Database table' }));
    await user.selectOptions(within(form).getByLabelText('Database'), 'mysql');
    await user.type(within(form).getByLabelText('Connection URI'), 'mysql://u:p@127.0.0.1/shop');
    await user.type(within(form).getByLabelText('Database Name'), 'shop');
    await user.type(within(form).getByLabelText('Table / Collection'), 'orders');
    await user.click(within(form).getByRole('button', { name: 'Add source' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(detail);
    expect(JSON.parse(textOf(calls.find((call) => call.method === 'POST')))).toEqual({
      kind: 'table',
      source_type: 'mysql',
      uri: 'mysql://u:p@127.0.0.1/shop',
      database: 'shop',
      collection_or_table: 'orders',
    });
    expect(screen.queryByText(/A new build started/)).not.toBeInTheDocument();
  });

  it('replaces a file, refreshes and schedules a table, and removes it after asking', async () => {
    const { calls } = renderPanel(knowledgeServer([primary, table]), 'build-screen');
    const user = userEvent.setup();
    const first = await screen.findByRole('listitem', { name: 'sales.csv' });
    const csv = new File(['region,revenue\nNorth,1\n'], 'sales-v2.csv', { type: 'text/csv' });
    await user.upload(within(first).getByLabelText('New version of sales.csv'), csv);
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe(knowledgePaths.one(AGENT, primary.id));
    expect((put.body as FormData).get('file')).toBeInstanceOf(File);
    expect(await screen.findByText('New version uploaded.')).toBeInTheDocument();

    const second = screen.getByRole('listitem', { name: 'parts' });
    await user.click(within(second).getByRole('button', { name: 'Refresh now' }));
    await waitFor(() =>
      expect(calls.at(-2)).toMatchObject({
        method: 'POST',
        path: knowledgePaths.refresh(AGENT, table.id),
      }),
    );
    await user.selectOptions(within(second).getByLabelText('Refresh automatically'), 'daily');
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(JSON.parse(textOf(calls.find((call) => call.method === 'PATCH')))).toEqual({
      refresh: 'daily',
    });

    await user.click(within(second).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove parts?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove source' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'DELETE')?.path).toBe(
        knowledgePaths.one(AGENT, table.id),
      ),
    );
    expect(await screen.findByText('Source removed.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'parts' })).not.toBeInTheDocument(),
    );
    expect(screen.getByText(/Its progress is shown above/)).toBeInTheDocument();
  });

  it('shows a refused refresh where it was asked, as the detail', async () => {
    const detail = 'The refresh could not be started right now. Please try again in a minute.';
    renderPanel(
      knowledgeServer([primary, table], (call) => (call.path.endsWith('/refresh') ? detail : '')),
      'build-screen',
    );
    const user = userEvent.setup();
    const second = await screen.findByRole('listitem', { name: 'parts' });
    await user.click(within(second).getByRole('button', { name: 'Refresh now' }));
    await waitFor(() =>
      expect(within(second).getAllByRole('alert').at(-1)).toHaveTextContent(detail),
    );
  });

  it('reads which build visitors see again once the running build ends', async () => {
    // A build runs at first; once it ends, visitors see build 1 of the 2 (follow is off).
    let sourceReads = 0;
    let publicationReads = 0;
    renderPanelWithNote((call) => {
      if (call.path.endsWith('/sources')) {
        sourceReads += 1;
        return { json: sourcesFixture([primary], sourceReads === 1 ? BUILD : null) };
      }
      publicationReads += 1;
      const served = publicationReads === 1 ? 2 : 1;
      return {
        json: publicationFixture({
          published: true,
          build_id: historyFixture(served).build_id,
          build_number: served,
          latest_build_id: historyFixture(2).build_id,
          latest_build_number: 2,
        }),
      };
    });
    expect(await screen.findByText(/A build of this agent is running/)).toBeInTheDocument();
    expect(screen.queryByText(/Visitors see build/)).not.toBeInTheDocument();
    expect(
      await screen.findByText(
        'Visitors see build 1 of 2 — publish build 2?',
        {},
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/A build of this agent is running/)).not.toBeInTheDocument();
  });
});

function renderPanelWithNote(reply: (call: Call) => Reply) {
  mockFetch(reply);
  renderRoute(
    '/panel',
    '/panel',
    <>
      <VisitorsNote agentId={AGENT} />
      <KnowledgePanel agentId={AGENT} agentName="Parts bot" where="build-screen" />
    </>,
  );
}
