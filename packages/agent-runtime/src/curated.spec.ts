import {
  closestCurated,
  curatedAnswer,
  CURATED_WORDS_OVERLAP,
  rememberingQueries,
  type CuratedEntry,
} from './curated';
import type { Embedder } from './embedders';
import { testEmbedding } from './testing';

const vector = (text: string) => Float32Array.from(testEmbedding(text, 256));

describe('closestCurated', () => {
  const refunds: CuratedEntry = {
    id: 'a',
    question: 'What is your refund policy?',
    answer: 'Refunds within 30 days, no questions asked.',
  };
  const hours: CuratedEntry = {
    id: 'b',
    question: 'When is the shop open?',
    answer: 'Monday to Friday, 9 to 5.',
  };

  it('finds the entry a question is close to by meaning, the nearest first, none below the bar', () => {
    const entries = [refunds, hours].map((entry) => ({ ...entry, vector: vector(entry.question) }));
    const asked = 'Tell me your refund policy, please';
    expect(closestCurated(asked, vector(asked), entries, 0.5)?.entry.id).toBe('a');
    const other = 'Which colours do the umbrellas come in?';
    expect(closestCurated(other, vector(other), entries, 0.5)).toBeNull();
  });

  it('falls back to shared content words when the agent has no vectors', () => {
    expect(closestCurated('your refund policy?', null, [refunds, hours], 0.9)?.entry.id).toBe('a');
    expect(closestCurated('refund of an order', null, [refunds], 0.9)).toBeNull();
    expect(CURATED_WORDS_OVERLAP).toBeGreaterThan(0.5);
  });
});

describe('curatedAnswer', () => {
  it('says the answer is curated, then gives its text word for word, then is done', () => {
    const entry = { id: 'a', question: 'Refunds?', answer: 'Within 30 days.' };
    expect(curatedAnswer({ entry, similarity: 0.9 })).toEqual([
      { type: 'curated', id: 'a', question: 'Refunds?', similarity: 0.9 },
      { type: 'token', text: 'Within 30 days.' },
      { type: 'done' },
    ]);
  });
});

describe('rememberingQueries', () => {
  /** An embedder that counts its query calls; "fail" fails once. */
  function counting() {
    const asked: string[] = [];
    let failed = false;
    const embedder: Embedder = {
      model: 'text-embedding-3-small',
      dimensions: 256,
      embedPassages: (texts) => Promise.resolve(texts.map(vector)),
      embedQuery: (text) => {
        asked.push(text);
        if (text === 'fail' && !failed) {
          failed = true;
          return Promise.reject(new Error('provider down'));
        }
        return Promise.resolve(vector(text));
      },
    };
    return { embedder, asked };
  }

  it('embeds a question once for the curated answers and the passage search', async () => {
    const { embedder, asked } = counting();
    const remembering = rememberingQueries(embedder, 2);
    const [first, second] = await Promise.all([
      remembering.embedQuery('refund policy'),
      remembering.embedQuery('refund policy'),
    ]);
    expect(second).toBe(first);
    expect(asked).toEqual(['refund policy']);
    // Only the last `size` are kept.
    await remembering.embedQuery('b');
    await remembering.embedQuery('c');
    await remembering.embedQuery('refund policy');
    expect(asked).toEqual(['refund policy', 'b', 'c', 'refund policy']);
  });

  it('forgets a failed embedding, so the next question tries again', async () => {
    const { embedder, asked } = counting();
    const remembering = rememberingQueries(embedder);
    await expect(remembering.embedQuery('fail')).rejects.toThrow('provider down');
    await expect(remembering.embedQuery('fail')).resolves.toHaveLength(256);
    expect(asked).toEqual(['fail', 'fail']);
  });
});
