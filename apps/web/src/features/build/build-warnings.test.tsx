import {
  buildPaths,
  RAG_BUILD_STAGES,
  WIZARD_ROUTES,
  type TBuildView,
  type TBuildWarning,
} from '@agentloom/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildViewFixture, stagesReached } from '../testing/build-view';
import { quietAgentSide } from '../testing/knowledge';
import { formOf, mockFetch, renderRoute, type Call, type Reply } from '../testing/render';
import { BuildPage } from './build-page';

const SESSION = '3b1e7c20-4d5f-4a6b-9c7d-8e9f0a1b2c3d';
const KEYWORD_DETAIL =
  'The local model could not be loaded. Answers are found by matching words, not meaning: ' +
  'switch to OpenAI search (your OpenAI key pays for it) and build again.';

const KEYWORD_WARNING = {
  code: 'keyword_search',
  detail: KEYWORD_DETAIL,
  fix: {
    embedding_model: 'text-embedding-3-small',
    label: 'Use OpenAI search instead and rebuild',
  },
} satisfies TBuildWarning;

function builtWith(warnings: TBuildView['warnings']): TBuildView {
  return buildViewFixture({
    session_id: SESSION,
    status: 'Built',
    stages: stagesReached(8, true, RAG_BUILD_STAGES),
    warnings,
  });
}

function renderBuild(reply: (call: Call) => Reply) {
  // The sources and publication beside the build are not what these tests are about.
  const mocked = mockFetch((call) => quietAgentSide(call) ?? reply(call));
  renderRoute(`/build/rag/${SESSION}`, '/build/:type/:sessionId', <BuildPage flavor="rag" />);
  return mocked;
}

afterEach(() => vi.restoreAllMocks());

describe('build warnings', () => {
  it('says a green build searches by words only, and switches to OpenAI search and rebuilds in one click', async () => {
    const warning = KEYWORD_WARNING;
    const { calls } = renderBuild((call) =>
      call.method === 'POST' ? { json: { session_id: SESSION } } : { json: builtWith([warning]) },
    );
    expect(await screen.findByText(KEYWORD_DETAIL)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: warning.fix.label }));
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
        WIZARD_ROUTES.rag.embedding,
        buildPaths.start('rag'),
      ]),
    );
    expect(formOf(calls.find((call) => call.path === WIZARD_ROUTES.rag.embedding))).toEqual({
      session_id: SESSION,
      model_name: 'text-embedding-3-small',
    });
  });

  it('keeps a failed switch on screen, and offers no button when there is no fix', async () => {
    const withFix = KEYWORD_WARNING;
    renderBuild((call) =>
      call.method === 'POST'
        ? { status: 422, json: { detail: 'Your OpenAI key was refused.' } }
        : { json: builtWith([withFix]) },
    );
    await userEvent.click(await screen.findByRole('button', { name: withFix.fix.label }));
    expect(await screen.findByText('Your OpenAI key was refused.')).toBeInTheDocument();
  });

  it('shows nothing for a build without warnings', async () => {
    renderBuild(() => ({ json: builtWith([]) }));
    expect(await screen.findByRole('button', { name: 'Preview' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Build warnings' })).not.toBeInTheDocument();
  });
});
