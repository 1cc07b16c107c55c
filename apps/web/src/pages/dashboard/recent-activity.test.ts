import { describe, expect, it } from 'vitest';
import { realActivity, SAMPLE_ACTIVITY, timeAgo } from './recent-activity';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');

describe('Recent Activity from the user’s own work', () => {
  it('lists agents and keys newest first, with how long ago', () => {
    const entries = realActivity(
      [
        {
          id: '00000000-0000-4000-8000-000000000001',
          name: 'Rose bakery helper',
          description: '',
          status: 'Built',
          type: 'rag',
          created_at: '2026-11-27T10:00:00.000Z',
        },
        {
          id: '00000000-0000-4000-8000-000000000002',
          name: 'Orders analyst',
          description: '',
          status: 'Draft',
          type: 'sql',
          created_at: '2026-11-25T12:00:00.000Z',
        },
      ],
      [
        {
          id: '00000000-0000-4000-8000-000000000003',
          provider: 'openai',
          name: null,
          key: 'sk-proj-...abcd',
          created_at: '2026-11-27T11:59:30.000Z',
        },
      ],
      NOW,
    );
    expect(entries.map(({ description, timestamp }) => [description, timestamp])).toEqual([
      ['Added an API key for OpenAI', 'just now'],
      ['Created RAG agent “Rose bakery helper”, now built', '2 hours ago'],
      ['Created SQL agent “Orders analyst”', '2 days ago'],
    ]);
    expect(entries[1]?.type).toBe('agent_built');
  });

  it('is empty for an account with nothing yet (the panel then shows the samples)', () => {
    expect(realActivity([], [], NOW)).toEqual([]);
    expect(timeAgo('not a date', NOW)).toBe('Unknown');
  });
});

describe('Recent Activity’s sample entries (SPEC.md: hard-coded, not from a server)', () => {
  it('has one entry of each kind SPEC names, each with its description and timestamp text', () => {
    expect(SAMPLE_ACTIVITY.map((entry) => entry.type)).toEqual([
      'agent_created',
      'agent_built',
      'api_key_added',
      'agent_downloaded',
      'agent_previewed',
    ]);
    expect(new Set(SAMPLE_ACTIVITY.map((entry) => entry.id)).size).toBe(SAMPLE_ACTIVITY.length);
    for (const entry of SAMPLE_ACTIVITY) {
      expect(entry.description).not.toBe('');
      expect(entry.timestamp).toMatch(/ ago$/);
    }
  });
});
