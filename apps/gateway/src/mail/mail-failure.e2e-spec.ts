import { Logger } from '@nestjs/common';
import { createServer } from 'node:net';
import { signUpAndLogIn } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/** A local port that refuses connections: taken from the OS, then released. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

describe('mail that cannot be delivered', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await refusingPort();
    t = await createTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port) });
  });
  afterAll(() => t.close());

  it('answers the user as always, and tells the operator on /health', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error');
    const user = await signUpAndLogIn(t.url, 'nomail');
    const health = await t.http.get('/health').expect(200);
    expect(health.body.mail).toBe('unknown');

    const known = await t.http.post('/forgot-password').query({ email: user.email }).expect(200);
    const unknown = await t.http
      .post('/forgot-password')
      .query({ email: `nobody-${Date.now()}@example.com` })
      .expect(200);
    expect(known.body).toEqual(unknown.body);

    // The delivery runs after the answer: /health shows it once the SMTP server refused.
    let body: { status: string; mail: string } = health.body;
    for (let attempt = 0; attempt < 100 && body.mail !== 'down'; attempt += 1) {
      await new Promise((wait) => setTimeout(wait, 100));
      body = (await t.http.get('/health').expect(200)).body;
    }
    expect(body).toMatchObject({ status: 'degraded', mail: 'down' });
    const messages = logged.mock.calls.map(([message]) => String(message));
    expect(messages).toContainEqual(
      expect.stringContaining(`not delivered: SMTP server 127.0.0.1:${port} failed`),
    );
    logged.mockRestore();
  });
});
