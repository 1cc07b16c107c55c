import { evaluationPaths, type TPipelineDetail } from '@agentloom/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, textOf, type Call } from '../testing/render';
import { CountingQuestionsCheck } from '../wizard/counting-questions';
import { questionsOf } from './expected-questions';

const AGENT = '4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e71';
const PATH = evaluationPaths.expectedQuestions(AGENT);

const pipeline = (sourceType: string) =>
  ({
    id: AGENT,
    agent_type: 'rag',
    config: { source_type: sourceType },
  }) as unknown as TPipelineDetail;

const puts = (calls: Call[]) => calls.filter((call) => call.path === PATH && call.method === 'PUT');

afterEach(() => vi.restoreAllMocks());

describe('the questions you expect, saved for every build to check', () => {
  it('reads lines as questions: trimmed, once each, empty lines dropped, at most 20', () => {
    expect(questionsOf(' Is it vegan? \n\nIs it vegan?\nWhen do you open?')).toEqual([
      'Is it vegan?',
      'When do you open?',
    ]);
    expect(questionsOf(Array.from({ length: 25 }, (_, i) => `Q${i}`).join('\n'))).toHaveLength(20);
  });

  it('shows the saved questions of a document agent and saves them when the box is left', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((call) => ({
      json: call.method === 'PUT' ? JSON.parse(textOf(call)) : { questions: ['Is it vegan?'] },
    }));
    renderRoute('/x', '/x', <CountingQuestionsCheck pipeline={pipeline('pdf')} />);
    const box = await screen.findByDisplayValue('Is it vegan?');
    expect(
      screen.getByText(
        'One per line. Each build checks that your agent finds a passage answering each one.',
      ),
    ).toBeInTheDocument();
    fireEvent.blur(box);
    expect(puts(calls)).toHaveLength(0);
    await user.type(box, '\nWhen do you open?');
    fireEvent.blur(box);
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(JSON.parse(textOf(puts(calls)[0]))).toEqual({
      questions: ['Is it vegan?', 'When do you open?'],
    });
  });
});
