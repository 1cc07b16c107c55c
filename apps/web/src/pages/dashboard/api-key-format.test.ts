import { describe, expect, it } from 'vitest';
import { displayServerMask, formatKeyDate, HIDDEN_KEY, maskApiKey } from './api-key-format';

describe('maskApiKey (first 8, an ellipsis, last 4)', () => {
  it('keeps the first eight and the last four characters', () => {
    expect(maskApiKey('sk-proj-abcdefghijklmnop1234')).toBe('sk-proj-…1234');
  });

  it('shows ******** when there is no key', () => {
    expect(maskApiKey('')).toBe(HIDDEN_KEY);
    expect(maskApiKey(null)).toBe('********');
    expect(maskApiKey(undefined)).toBe('********');
  });

  it('hides a key too short to mask without revealing it', () => {
    expect(maskApiKey('abcdefghijkl')).toBe('********');
    expect(maskApiKey('abcdefghijklm')).toBe('abcdefgh…jklm');
  });
});

describe('displayServerMask', () => {
  it("turns the gateway's three dots into the app's ellipsis", () => {
    expect(displayServerMask('sk-proj-...1234')).toBe('sk-proj-…1234');
    expect(displayServerMask('********')).toBe('********');
    expect(displayServerMask(null)).toBe('********');
  });
});

describe('formatKeyDate', () => {
  it("shows 'Unknown' for a date that cannot be parsed", () => {
    expect(formatKeyDate('not a date')).toBe('Unknown');
    expect(formatKeyDate('')).toBe('Unknown');
    expect(formatKeyDate(null)).toBe('Unknown');
  });

  it('formats a valid ISO date', () => {
    expect(formatKeyDate('2025-03-14T12:00:00.000Z')).toBe('Mar 14, 2025');
  });
});
