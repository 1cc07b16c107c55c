import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E, GATEWAY_URL } from '../playwright.config';
import { signUpAndLogIn } from './support';

// One origin (issue 17): the bundle names no API host, the web server forwards the gateway's
// paths, so the app works under whatever name or address it is opened by, not just the one
// PUBLIC_URL names (127.0.0.1 here).
const SECOND_LOOPBACK = `http://127.0.0.2:${E2E.webPort}`;

test.describe('one origin', () => {
  test.use({ baseURL: SECOND_LOOPBACK });

  test('signs up on a second loopback address, every call to that same origin', async ({
    page,
  }) => {
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    const user = await signUpAndLogIn(page);
    await expect(page.getByRole('heading', { name: `Welcome, ${user.username}!` })).toBeVisible();
    expect([...origins]).toEqual([SECOND_LOOPBACK]);
  });

  test('forwards the API and keeps the app pages that share a path with it', async ({
    request,
  }) => {
    const health = await request.get('/health/live');
    expect(health.ok()).toBe(true);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    // GET /reset-password is the app's page; POST /reset-password is the gateway's call.
    const page = await request.get('/reset-password?token=abc');
    expect(page.headers()['content-type']).toContain('text/html');
    const call = await request.post('/reset-password', {
      data: { token: 'not-a-token', new_password: 'x', confirm_password: 'y' },
    });
    expect(call.status()).toBeGreaterThanOrEqual(400);
    expect(call.headers()['content-type']).toContain('application/json');
    // Published agents' widget script and share pages come from the gateway too.
    const widget = await request.get('/w/widget.js');
    expect(widget.headers()['content-type']).toContain('javascript');
    const share = await request.get('/s/00000000-0000-4000-8000-000000000000/');
    expect(share.status()).toBe(404);
    expect(await share.text()).toContain('This agent is not shared here.');
  });

  test('the runtime config and the bundle name no API host', async ({ request }) => {
    const config = await request.get('/config.js');
    expect(await config.text()).toContain('"apiUrl":""');
    const assets = path.join(import.meta.dirname, '..', 'dist-e2e', String(E2E.webPort), 'assets');
    for (const file of readdirSync(assets).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(path.join(assets, file), 'utf8');
      expect(code).not.toContain(new URL(GATEWAY_URL).host);
      expect(code).not.toContain('localhost:8000');
    }
  });
});
