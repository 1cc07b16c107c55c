import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { renderWithProviders } from '../../components/test-utils';
import { ConversationsSection } from './conversations-section';
import { CuratedAnswersSection } from './curated-answers-section';

const AGENT = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0001';
const CONVERSATION = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0002';
const ANSWER_ID = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0003';
const CURATED_ID = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0004';
const AT = '2026-11-28T10:00:00.000Z';

const CURATED = {
  id: CURATED_ID,
  question: 'What is your refund policy?',
  answer: 'Refunds within 30 days.',
  corrects_message_id: null,
  created_at: AT,
  updated_at: AT,
};

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The owner's side of curated answers: the list, adding and deleting, and writing the right answer under a conversation's answer. */
describe('curated answers in the publish panel', () => {
  let fetchSpy: MockInstance<typeof fetch>;
  const sent = (method: string, suffix: string) =>
    fetchSpy.mock.calls
      .filter(([input, init]) => urlOf(input).endsWith(suffix) && init?.method === method)
      .map(([, init]) => (init?.body ? (JSON.parse(init.body as string) as unknown) : null));

  beforeEach(() => {
    fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = urlOf(input);
      const method = init?.method ?? 'GET';
      if (url.endsWith('/curated-answers') && method === 'GET')
        return Promise.resolve(json({ answers: [CURATED] }));
      if (url.endsWith('/curated-answers') && method === 'POST')
        return Promise.resolve(json({ ...CURATED, id: ANSWER_ID }, 201));
      if (url.endsWith(`/curated-answers/${CURATED_ID}`))
        return Promise.resolve(json({ message: 'Curated answer deleted.' }));
      if (url.endsWith('/conversations'))
        return Promise.resolve(
          json([
            {
              id: CONVERSATION,
              channel: 'widget',
              messages: 2,
              thumbs_up: 0,
              thumbs_down: 1,
              title: 'Do you ship to Madeira?',
              created_at: AT,
              updated_at: AT,
            },
          ]),
        );
      if (url.endsWith(`/conversations/${CONVERSATION}`))
        return Promise.resolve(
          json({
            id: CONVERSATION,
            channel: 'widget',
            messages: 2,
            thumbs_up: 0,
            thumbs_down: 1,
            title: 'Do you ship to Madeira?',
            created_at: AT,
            updated_at: AT,
            turns: [
              {
                id: '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0005',
                role: 'user',
                content: 'Do you ship to Madeira?',
                sources: [],
                feedback: null,
                created_at: AT,
              },
              {
                id: ANSWER_ID,
                role: 'assistant',
                content: 'I do not know.',
                sources: [],
                feedback: 'down',
                created_at: AT,
              },
            ],
          }),
        );
      return Promise.resolve(json({ detail: 'unexpected' }, 500));
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists the curated answers, adds one and deletes one', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CuratedAnswersSection agentId={AGENT} />);
    const list = await screen.findByRole('list', { name: 'Curated answers' });
    expect(await within(list).findByText('What is your refund policy?')).toBeInTheDocument();
    expect(within(list).getByText('Refunds within 30 days.')).toBeInTheDocument();

    await user.type(screen.getAllByLabelText('Question')[0]!, 'When are you open?');
    await user.type(screen.getAllByLabelText('Answer')[0]!, '9 to 5.');
    await user.click(screen.getByRole('button', { name: 'Add curated answer' }));
    await vi.waitFor(() =>
      expect(sent('POST', '/curated-answers')).toEqual([
        { question: 'When are you open?', answer: '9 to 5.' },
      ]),
    );

    await user.click(
      screen.getByRole('button', { name: 'Delete the answer to What is your refund policy?' }),
    );
    await vi.waitFor(() =>
      expect(sent('DELETE', `/curated-answers/${CURATED_ID}`)).toHaveLength(1),
    );
  });

  it('writes the right answer under an answer rated not helpful, in one step', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ConversationsSection agentId={AGENT} />);
    await user.click(
      await screen.findByRole('button', { name: 'Open conversation Do you ship to Madeira?' }),
    );
    expect(await screen.findByText(/rated not helpful/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Write the right answer' }));
    await user.type(screen.getByLabelText('The right answer'), 'Yes, in five working days.');
    await user.click(screen.getByRole('button', { name: 'Save the answer' }));
    await vi.waitFor(() =>
      expect(sent('POST', '/curated-answers')).toEqual([
        { corrects_message_id: ANSWER_ID, answer: 'Yes, in five working days.' },
      ]),
    );
    expect(
      await screen.findByRole('button', { name: 'Write the right answer' }),
    ).toBeInTheDocument();
  });
});
