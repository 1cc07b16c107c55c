import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The token lives in localStorage: the app must send a CSP and refuse to be framed (issue 16,
// finding 5), and must still work under that policy.
test('the app is served with a CSP and cannot be framed', async ({ page, request }) => {
  const res = await request.get('/');
  const headers = res.headers();
  expect(headers['x-frame-options']).toBe('DENY');
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");

  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: /log ?in|sign ?in/i }).first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('the nginx image includes the same headers on every location', () => {
  const nginx = readFileSync(path.join(import.meta.dirname, '..', 'nginx.conf'), 'utf8');
  const locations = nginx.match(/location [^{]+\{[^}]*add_header[^}]*\}/g) ?? [];
  expect(locations.length).toBeGreaterThan(0);
  for (const location of locations) {
    expect(location).toContain('include /etc/nginx/conf.d/security-headers.inc;');
  }
});
