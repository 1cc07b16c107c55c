import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { renderWithProviders } from '../../components/test-utils';
import { InsightsSection } from './insights-section';

const AGENT = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0001';
const UNANSWERED = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0002';
const DOWN = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0003';
const CONVERSATION = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0004';
const AT = '2026-11-28T10:00:00.000Z';

const answer = (id: string, question: string, curated: string | null) => ({
  message_id: id,
  conversation_id: CONVERSATION,
  question,
  answer: 'I do not know this from the sources.',
  answered_at: AT,
  curated_answer_id: curated,
});

const INSIGHTS = {
  days: Array.from({ length: 14 }, (_, i) => ({
    date: `2026-11-${String(15 + i).padStart(2, '0')}`,
    questions: i === 13 ? 3 : 0,
  })),
  questions: 3,
  unanswered: { total: 1, answers: [answer(UNANSWERED, 'Boiling point of mercury?', null)] },
  thumbs_down: { total: 1, answers: [answer(DOWN, 'Do you ship to Madeira?', DOWN)] },
};

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The owner's insights: questions per day, and the answers to correct, each correctable in place. */
describe('InsightsSection', () => {
  let fetchSpy: MockInstance<typeof fetch>;
  beforeEach(() => {
    fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = urlOf(input);
      if (url.endsWith('/insights')) return Promise.resolve(json(INSIGHTS));
      if (url.endsWith('/curated-answers') && init?.method === 'POST')
        return Promise.resolve(json({}, 201));
      return Promise.resolve(json({ detail: 'unexpected' }, 500));
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows questions per day and offers the right answer only where none was written', async () => {
    const user = userEvent.setup();
    renderWithProviders(<InsightsSection agentId={AGENT} />);
    expect(await screen.findByText('Last 14 days: 3 questions')).toBeInTheDocument();
    const days = screen.getByRole('list', { name: 'Questions per day' });
    expect(within(days).getAllByRole('listitem')).toHaveLength(14);
    expect(within(days).getByLabelText('2026-11-28: 3')).toBeInTheDocument();

    const down = screen.getByRole('region', { name: 'Rated not helpful' });
    expect(within(down).getByText('Do you ship to Madeira?')).toBeInTheDocument();
    expect(within(down).getByText('You wrote the right answer.')).toBeInTheDocument();
    expect(within(down).queryByRole('button', { name: 'Write the right answer' })).toBeNull();

    const unanswered = screen.getByRole('region', { name: 'Answered without a source' });
    await user.click(within(unanswered).getByRole('button', { name: 'Write the right answer' }));
    await user.type(within(unanswered).getByLabelText('The right answer'), '356.7 °C.');
    await user.click(within(unanswered).getByRole('button', { name: 'Save the answer' }));
    await vi.waitFor(() => {
      const posted = fetchSpy.mock.calls.find(([, init]) => init?.method === 'POST');
      expect(JSON.parse(posted?.[1]?.body as string)).toEqual({
        corrects_message_id: UNANSWERED,
        answer: '356.7 °C.',
      });
    });
  });
});
