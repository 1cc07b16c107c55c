import { describe, expect, it } from 'vitest';
import { isTableSourceType } from '@agentloom/contracts';
import { looksLikeCounting } from './counting-questions';

describe('questions that count rows', () => {
  it('are told from questions a few passages answer', () => {
    for (const question of [
      'How many orders were cancelled?',
      'What is the total revenue in March?',
      'Average basket per customer',
      'Which product sold the most?',
      'top 5 customers',
      'How much did we sell in March?',
      'How much revenue came in altogether?',
    ]) {
      expect(looksLikeCounting(question), question).toBe(true);
    }
    for (const question of [
      'What did West Gadgets order?',
      'Is the Rose cake gluten free?',
      'When was order 1042 shipped?',
      // A price is one row's answer, not a total.
      'How much is the Orange Blossom Bath Bomb?',
      'How much does the Rose cake cost?',
    ]) {
      expect(looksLikeCounting(question), question).toBe(false);
    }
  });

  it('matter for tables only', () => {
    expect(['csv', 'excel', 'postgres', 'mysql', 'sqlite', 'mongo'].every(isTableSourceType)).toBe(
      true,
    );
    expect(['pdf', 'text_file', null].some(isTableSourceType)).toBe(false);
  });
});
