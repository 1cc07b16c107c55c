import type { TBuildEvaluation, TBuildHistoryItem, TPublication } from '@agentloom/contracts';
import { buildPaths } from '@agentloom/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilds } from '../publish/build-history';
import { VisitorsNote } from '../publish/visitors-note';
import { historyFixture, publicationFixture } from '../testing/knowledge';
import { mockFetch, renderRoute, textOf, type Call, type Reply } from '../testing/render';
import { describeFailure, lowerScoreQuestion } from './build-evaluation';

const AGENT = '4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e70';
const PUBLICATION = `/agents/${AGENT}/publication`;

const evaluation = (passed: number, cases = 10): TBuildEvaluation => ({
  cases,
  passed,
  failed: Array.from({ length: cases - passed }, (_, i) => ({
    kind: i === 0 ? ('thumbs_up' as const) : ('expected' as const),
    question: `Question ${i + 1}?`,
    reason: 'No passage was found for it: the agent would say it does not know.',
    expected: 'a passage that answers it',
    got: 'no passage',
  })),
  score: cases === 0 ? 1 : passed / cases,
  evaluated_at: '2026-11-28T10:00:00.000Z',
});

/** Builds 3, 2, 1 with the given checks passed; `served` is the one visitors see. */
function server(passed: [number, number, number], served: number) {
  const builds: TBuildHistoryItem[] = [3, 2, 1].map((number) =>
    historyFixture(number, {
      published: number === served,
      evaluation: evaluation(passed[3 - number]!),
    }),
  );
  const state: TPublication = publicationFixture({
    published: true,
    build_id: historyFixture(served).build_id,
    build_number: served,
    latest_build_id: historyFixture(3).build_id,
    latest_build_number: 3,
  });
  return (call: Call): Reply => {
    if (call.path === buildPaths.history(AGENT)) return { json: builds };
    if (call.path === PUBLICATION) return { json: state };
    return { json: [] };
  };
}

const puts = (calls: Call[]) =>
  calls.filter((call) => call.path === PUBLICATION && call.method === 'PUT');

afterEach(() => vi.restoreAllMocks());

describe('lowerScoreQuestion', () => {
  const item = (number: number, passed: number | null, cases = 10) => ({
    number,
    evaluation: passed === null ? null : evaluation(passed, cases),
  });

  it('asks when the build passes fewer checks than the published one, in plain words', () => {
    expect(lowerScoreQuestion(item(3, 7), item(2, 9))).toBe(
      'Build 3 passes 7 of 10 checks; the published build 2 passes 9. Publish anyway?',
    );
    expect(lowerScoreQuestion(item(4, 3, 4), item(2, 9))).toBe(
      'Build 4 passes 3 of 4 checks; the published build 2 passes 9 of 10. Publish anyway?',
    );
  });

  it('does not ask for as good a build, the published one itself, or without scores', () => {
    expect(lowerScoreQuestion(item(3, 9), item(2, 9))).toBeNull();
    expect(lowerScoreQuestion(item(3, 10), item(2, 9))).toBeNull();
    expect(lowerScoreQuestion(item(2, 1), item(2, 9))).toBeNull();
    expect(lowerScoreQuestion(item(3, null), item(2, 9))).toBeNull();
    expect(lowerScoreQuestion(item(3, 1), item(2, null))).toBeNull();
    expect(lowerScoreQuestion(item(3, 1), undefined)).toBeNull();
  });
});

describe('the evaluation in the build history', () => {
  it('says how many checks each build passed and which failed, in plain words', async () => {
    const user = userEvent.setup();
    mockFetch(server([10, 9, 7], 3));
    renderRoute('/x', '/x', <AgentBuilds agentId={AGENT} agentName="Parts bot" />);
    const list = await screen.findByRole('list', { name: 'Builds of Parts bot' });
    const second = within(list).getByRole('listitem', { name: 'Build 2' });
    expect(second).toHaveTextContent('9 of 10 checks passed');
    await user.click(within(second).getByText('The check that failed'));
    expect(
      within(second).getByText(
        '“Question 1?” (an answer visitors liked): No passage was found for it: the agent would say it does not know.',
      ),
    ).toBeVisible();
    expect(describeFailure(evaluation(9).failed[0]!)).toMatch(/an answer visitors liked/);
  });

  it('asks before rolling back to a build that passes fewer checks, and publishes only if confirmed', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(server([10, 9, 7], 3));
    renderRoute('/x', '/x', <AgentBuilds agentId={AGENT} agentName="Parts bot" />);
    await user.click(await screen.findByRole('button', { name: 'Publish build 1' }));
    expect(
      await screen.findByText(
        'Build 1 passes 7 of 10 checks; the published build 3 passes 10. Publish anyway?',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(puts(calls)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Publish build 1' }));
    await user.click(await screen.findByRole('button', { name: 'Publish anyway' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(JSON.parse(textOf(puts(calls)[0]))).toEqual({
      build_id: historyFixture(1).build_id,
    });
  });

  it('publishes a build that passes as many checks without asking', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(server([9, 9, 7], 1));
    renderRoute('/x', '/x', <VisitorsNote agentId={AGENT} />);
    await user.click(await screen.findByRole('button', { name: 'Publish build 3' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(screen.queryByText(/Publish anyway/)).not.toBeInTheDocument();
  });

  it('asks from "Visitors see build 2 of 3" too when the newest build passes fewer', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(server([6, 9, 7], 2));
    renderRoute('/x', '/x', <VisitorsNote agentId={AGENT} />);
    await user.click(await screen.findByRole('button', { name: 'Publish build 3' }));
    expect(
      await screen.findByText(
        'Build 3 passes 6 of 10 checks; the published build 2 passes 9. Publish anyway?',
      ),
    ).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });
});
