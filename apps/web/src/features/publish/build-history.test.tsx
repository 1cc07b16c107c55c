import { buildPaths, insightsPaths, type TPublication } from '@agentloom/contracts';
import type { ReactElement } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { historyFixture, publicationFixture } from '../testing/knowledge';
import { mockFetch, renderRoute, textOf, type Call, type Reply } from '../testing/render';
import { AgentBuilds } from './build-history';
import { PublishPanel } from './publish-panel';
import { VisitorsNote } from './visitors-note';

const AGENT = '4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f';
const PUBLICATION = `/agents/${AGENT}/publication`;

/**
 * A stand-in for the publication and build history: two Built builds and a Failed one, with
 * visitors served `served`; PUT {build_id} serves that build, PATCH keeps the settings.
 */
function publishingServer(served: number, refuse?: string) {
  const builds = [historyFixture(3, { status: 'Failed', error: 'The LLM refused the key.' })]
    .concat([historyFixture(2), historyFixture(1)])
    .map((build) => ({ ...build, published: build.number === served }));
  let state: TPublication = publicationFixture({
    published: true,
    build_id: historyFixture(served).build_id,
    build_number: served,
    latest_build_id: historyFixture(2).build_id,
    latest_build_number: 2,
  });
  return (call: Call): Reply => {
    if (call.path === buildPaths.history(AGENT)) return { json: builds };
    if (call.path === insightsPaths.insights(AGENT)) {
      const none = { total: 0, answers: [] };
      return { json: { days: [], questions: 0, unanswered: none, thumbs_down: none } };
    }
    if (call.path !== PUBLICATION) return { json: [] };
    if (call.method === 'PUT') {
      if (refuse) return { status: 422, json: { detail: refuse } };
      const { build_id } = JSON.parse(textOf(call)) as { build_id: string };
      const number = builds.find((build) => build.build_id === build_id)!.number;
      for (const build of builds) build.published = build.number === number;
      state = { ...state, build_id, build_number: number };
    }
    if (call.method === 'PATCH') state = { ...state, ...(JSON.parse(textOf(call)) as object) };
    return { json: state };
  };
}

function renderWith(element: ReactElement, reply: (call: Call) => Reply) {
  const mocked = mockFetch(reply);
  renderRoute('/x', '/x', element);
  return mocked;
}

afterEach(() => vi.restoreAllMocks());

describe('build history and publishing', () => {
  it('marks the build visitors see and publishes an older one (rollback)', async () => {
    const { calls } = renderWith(
      <AgentBuilds agentId={AGENT} agentName="Parts bot" />,
      publishingServer(2),
    );
    const list = await screen.findByRole('list', { name: 'Builds of Parts bot' });
    const second = within(list).getByRole('listitem', { name: 'Build 2' });
    expect(second).toHaveTextContent('Visitors see this build');
    expect(second).toHaveTextContent('added faq.txt');
    expect(within(second).queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
    // A failed build cannot be served.
    const third = within(list).getByRole('listitem', { name: 'Build 3' });
    expect(within(third).queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();

    const user = userEvent.setup();
    const first = within(list).getByRole('listitem', { name: 'Build 1' });
    await user.click(within(first).getByRole('button', { name: 'Publish build 1' }));
    const put = calls.find((call) => call.method === 'PUT');
    expect(JSON.parse(textOf(put))).toEqual({ build_id: historyFixture(1).build_id });
    await waitFor(() => expect(first).toHaveTextContent('Visitors see this build'));
    expect(second).not.toHaveTextContent('Visitors see this build');
    expect(within(second).getByRole('button', { name: 'Publish build 2' })).toBeInTheDocument();
  });

  it('keeps a refused publish under the list as the detail', async () => {
    const detail = 'This build has no agent to serve.';
    renderWith(<AgentBuilds agentId={AGENT} agentName="Parts bot" />, publishingServer(2, detail));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish build 1' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
  });

  it('says "Visitors see build 1 of 2 — publish build 2?" and publishes build 2', async () => {
    const { calls } = renderWith(<VisitorsNote agentId={AGENT} />, publishingServer(1));
    expect(
      await screen.findByText('Visitors see build 1 of 2 — publish build 2?'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Publish build 2' }));
    expect(JSON.parse(textOf(calls.find((call) => call.method === 'PUT')))).toEqual({
      build_id: historyFixture(2).build_id,
    });
    await waitFor(() =>
      expect(screen.queryByText(/Visitors see build 1 of 2/)).not.toBeInTheDocument(),
    );
  });

  it('says nothing when visitors see the newest build', async () => {
    const { calls } = renderWith(<VisitorsNote agentId={AGENT} />, publishingServer(2));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByText(/Visitors see build/)).not.toBeInTheDocument();
  });

  it('shows the follow-knowledge switch in the panel and saves it', async () => {
    const { calls } = renderWith(
      <PublishPanel agentId={AGENT} agentName="Parts bot" />,
      publishingServer(1),
    );
    const follow = await screen.findByLabelText('Published agent follows knowledge changes');
    expect(follow).toBeChecked();
    expect(screen.getByText('Visitors see build 1 of 2 — publish build 2?')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Builds of Parts bot' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(follow);
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(JSON.parse(textOf(patch))).toEqual({ follow_knowledge: false });
    await waitFor(() => expect(follow).not.toBeChecked());
  });
});
