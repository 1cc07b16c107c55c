import { describe, expect, it } from 'vitest';
import { defaultTestPage, ownerCheckUrl } from './widget-test';

describe('Test it on my site', () => {
  it('opens the page with the owner’s check flag, keeping the scheme typed', () => {
    expect(ownerCheckUrl('http://localhost:8080/shop')).toBe(
      'http://localhost:8080/shop#agentloom-check',
    );
    expect(ownerCheckUrl('www.rosebakery.com')).toBe('https://www.rosebakery.com/#agentloom-check');
    expect(ownerCheckUrl('https://rosebakery.com/#top')).toBe(
      'https://rosebakery.com/#agentloom-check',
    );
    expect(ownerCheckUrl('ftp://rosebakery.com')).toBeNull();
    expect(ownerCheckUrl('  ')).toBeNull();
  });

  it('offers the http page of a local test host, the first site otherwise', () => {
    const local = ['https://127.0.0.1:8080', 'http://127.0.0.1:8080'];
    expect(defaultTestPage(local)).toBe('http://127.0.0.1:8080/');
    const shop = ['https://www.rosebakery.com', 'http://www.rosebakery.com'];
    expect(defaultTestPage(shop)).toBe('https://www.rosebakery.com/');
    expect(defaultTestPage(['https://localhost:3000'])).toBe('https://localhost:3000/');
    expect(defaultTestPage([])).toBe('');
  });
});
