import { closestCurated, CURATED_WORDS_OVERLAP, type CuratedEntry } from './curated';
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
