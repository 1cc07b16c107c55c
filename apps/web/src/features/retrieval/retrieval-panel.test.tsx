import {
  DEFAULT_RETRIEVAL,
  retrievalPaths,
  type TRetrievalSettingsView,
  type TRetrievalTestResult,
} from '@agentloom/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, textOf, type Call, type Reply } from '../testing/render';
import { RetrievalPanel } from './retrieval-panel';

const AGENT = '5c2d8e10-7a3b-4c4d-9e5f-6a7b8c9d0e1f';
const BUILD = '6d3e9f21-8b4c-4d5e-8f60-7b8c9d0e1f2a';

const settingsView = (overrides: Partial<TRetrievalSettingsView> = {}): TRetrievalSettingsView => ({
  settings: { ...DEFAULT_RETRIEVAL, answer_only_from_sources: true },
  built: { ...DEFAULT_RETRIEVAL, answer_only_from_sources: true },
  build_needed: false,
  reembeds_everything: false,
  ...overrides,
});

const passage = {
  id: 'p1',
  citation: 'orders.csv, row 13',
  source: 'orders.csv',
  page: null,
  row: 13,
  ref: null,
  url: null,
  section: null,
  text: 'Sprocket Max bulk order, Lisbon, 400 units',
  score: 0.032,
  similarity: 0.61,
  word_score: 7.2,
  found_by: 'both' as const,
  relevant: true,
};

function renderPanel(reply: (call: Call) => Reply, built = true) {
  const mocked = mockFetch(reply);
  renderRoute('/panel', '/panel', <RetrievalPanel agentId={AGENT} built={built} />);
  return mocked;
}

afterEach(() => vi.restoreAllMocks());

describe('retrieval panel', () => {
  it('shows the passages a question finds, with their source, score and search', async () => {
    const result: TRetrievalTestResult = {
      build_id: BUILD,
      settings: settingsView().settings,
      passages: [passage],
      answers: true,
      relevance_threshold: 0.3,
      note: null,
    };
    const { calls } = renderPanel((call) =>
      call.path === retrievalPaths.test(AGENT) ? { json: result } : { json: settingsView() },
    );
    await userEvent.type(
      await screen.findByLabelText('Test a question'),
      'Who ordered Sprocket Max?',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show passages' }));
    const list = await screen.findByRole('list', { name: 'Passages' });
    expect(within(list).getByText('1. orders.csv, row 13')).toBeInTheDocument();
    expect(
      within(list).getByText(/found by meaning and words · similarity 0\.61/),
    ).toBeInTheDocument();
    expect(within(list).getByText('relevant')).toBeInTheDocument();
    const sent = calls.find((call) => call.path === retrievalPaths.test(AGENT));
    expect(JSON.parse(textOf(sent))).toEqual({ question: 'Who ordered Sprocket Max?' });
  });

  it('says when the agent would not answer, and keeps a refused test in place', async () => {
    let tries = 0;
    renderPanel((call) => {
      if (call.path !== retrievalPaths.test(AGENT)) return { json: settingsView() };
      tries += 1;
      if (tries === 1) return { status: 422, json: { detail: 'Type a question first.' } };
      return {
        json: {
          build_id: BUILD,
          settings: settingsView().settings,
          passages: [{ ...passage, relevant: false, similarity: 0.05, found_by: 'meaning' }],
          answers: false,
          relevance_threshold: 0.3,
          note: null,
        },
      };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Show passages' }));
    expect(await screen.findByText('Type a question first.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Test a question'), 'What is the weather?');
    await userEvent.click(screen.getByRole('button', { name: 'Show passages' }));
    expect(await screen.findByText(/the agent would say it does not know/)).toBeInTheDocument();
    expect(screen.getByText('weak match')).toBeInTheDocument();
  });

  it('saves the settings in plain words and says a new passage size embeds everything again', async () => {
    const saved = settingsView({
      settings: { ...DEFAULT_RETRIEVAL, chunk_size: 1200, top_k: 6, search: 'words' },
      build_needed: true,
      reembeds_everything: true,
    });
    const { calls } = renderPanel((call) =>
      call.method === 'PUT' ? { json: saved } : { json: settingsView() },
    );
    const size = await screen.findByLabelText('Passage size (characters)');
    await userEvent.clear(size);
    await userEvent.type(size, '1200');
    const depth = screen.getByLabelText('Passages per answer');
    await userEvent.clear(depth);
    await userEvent.type(depth, '6');
    await userEvent.click(screen.getByRole('radio', { name: /By words/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/apply from the next build/)).toBeInTheDocument();
    expect(screen.getByText(/embeds all of it again/)).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(retrievalPaths.settings(AGENT));
    expect(JSON.parse(textOf(put))).toMatchObject({ chunk_size: 1200, top_k: 6, search: 'words' });
  });

  it('before the first build, offers the settings and says the test comes once it is built', async () => {
    renderPanel(() => ({ json: settingsView({ built: null }) }), false);
    expect(await screen.findByRole('radio', { name: /Both \(recommended\)/ })).toBeChecked();
    expect(screen.getByText(/Once the agent is built, you can test/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show passages' })).not.toBeInTheDocument();
  });
});
