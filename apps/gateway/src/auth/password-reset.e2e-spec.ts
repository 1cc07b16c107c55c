import { createHash, randomUUID } from 'node:crypto';
import { SmtpCatcher } from '../testing/smtp-catcher';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, resetLoginThrottle, type TestApp } from '../testing/test-app';

const RESET_LINK = /http:\/\/localhost:5173\/reset-password\?token=([\w-]+)/;

describe('password recovery over real SMTP', () => {
  const smtp = new SmtpCatcher();
  let t: TestApp;

  beforeAll(async () => {
    const port = await smtp.start();
    // These tests ask for many links from one address; the limits have tests of their own below.
    t = await createTestApp({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      RESET_MAX_REQUESTS: '1000',
    });
  });
  beforeEach(() => resetLoginThrottle(t.redis));
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function requestReset(user: TestUser, path = '/auth/forgot-password'): Promise<string> {
    const before = smtp.countFor(user.email);
    await t.http.post(path).query({ email: user.email }).expect(200);
    const mail = await smtp.waitForMessage(user.email, before);
    const match = RESET_LINK.exec(mail.text ?? '');
    if (!match) throw new Error('the e-mail holds no reset link');
    return match[1]!;
  }

  const passwordHash = async (user: TestUser) =>
    (await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;

  it('e-mails a link, the link resets the password, and the new password logs in', async () => {
    const user = await signUpAndLogIn(t.url, 'reset');
    const token = await requestReset(user);

    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Reset your Agentloom password');

    await t.http
      .post('/reset-password')
      .send({
        token,
        new_password: 'a brand new password',
        confirm_password: 'a brand new password',
      })
      .expect(200);
    const login = await t.http
      .post('/auth/login')
      .send({ email: user.email, password: 'a brand new password' })
      .expect(200);
    expect(login.body.user.email).toBe(user.email);
    await t.http
      .post('/auth/login')
      .send({ email: user.email, password: user.password })
      .expect(401);
  });

  it('answers both forgot-password paths identically for known and unknown e-mails, without the token', async () => {
    const user = await signUpAndLogIn(t.url, 'known');
    const answers = await Promise.all([
      t.http.post('/auth/forgot-password').query({ email: user.email }),
      t.http.post('/auth/forgot-password').query({ email: `nobody_${randomUUID()}@example.com` }),
      t.http.post('/forgot-password').query({ email: user.email }),
      t.http.post('/forgot-password').query({ email: `nobody_${randomUUID()}@example.com` }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0].body);
      expect(JSON.stringify(answer.body)).not.toMatch(/token/i);
    }
    await smtp.waitFor(user.email);
  });

  it('stores only a SHA-256 of the token', async () => {
    const user = await signUpAndLogIn(t.url, 'hashed');
    const token = await requestReset(user, '/forgot-password');
    const rows = await t.prisma.passwordResetToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a reused token and leaves the password as the first reset set it', async () => {
    const user = await signUpAndLogIn(t.url, 'reuse');
    const token = await requestReset(user);
    const body = {
      token,
      new_password: 'first new password',
      confirm_password: 'first new password',
    };
    await t.http.post('/reset-password').send(body).expect(200);
    const hash = await passwordHash(user);
    const again = await t.http
      .post('/reset-password')
      .send({
        ...body,
        new_password: 'second new password',
        confirm_password: 'second new password',
      })
      .expect(400);
    expect(again.body.detail).toMatch(/invalid or has expired/);
    expect(await passwordHash(user)).toBe(hash);
  });

  it.each([
    ['an empty token', ''],
    ['a made-up token', 'made-up-token-value-that-was-never-issued'],
  ])('refuses %s and changes nothing', async (_case, token) => {
    const user = await signUpAndLogIn(t.url, 'forged');
    await requestReset(user);
    const hash = await passwordHash(user);
    const res = await t.http
      .post('/reset-password')
      .send({ token, new_password: 'attacker password', confirm_password: 'attacker password' })
      .expect(400);
    expect(res.body.detail).toBe('This reset link is invalid or has expired. Request a new one.');
    expect(await passwordHash(user)).toBe(hash);
  });

  it('refuses an expired token', async () => {
    const user = await signUpAndLogIn(t.url, 'expired');
    const token = await requestReset(user);
    await t.prisma.passwordResetToken.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const hash = await passwordHash(user);
    await t.http
      .post('/reset-password')
      .send({ token, new_password: 'too late password', confirm_password: 'too late password' })
      .expect(400);
    expect(await passwordHash(user)).toBe(hash);
  });

  it('voids the earlier token when a new one is issued', async () => {
    const user = await signUpAndLogIn(t.url, 'voided');
    const first = await requestReset(user);
    const second = await requestReset(user);
    expect(second).not.toBe(first);
    await t.http
      .post('/reset-password')
      .send({ token: first, new_password: 'via old link', confirm_password: 'via old link' })
      .expect(400);
    await t.http
      .post('/reset-password')
      .send({ token: second, new_password: 'via new link', confirm_password: 'via new link' })
      .expect(200);
  });

  it('refuses mismatched new passwords and keeps the token usable', async () => {
    const user = await signUpAndLogIn(t.url, 'mismatch');
    const token = await requestReset(user);
    const res = await t.http
      .post('/reset-password')
      .send({ token, new_password: 'one new password', confirm_password: 'another password' })
      .expect(400);
    expect(res.body).toEqual({ detail: 'Passwords do not match.' });
    await t.http
      .post('/reset-password')
      .send({ token, new_password: 'one new password', confirm_password: 'one new password' })
      .expect(200);
  });

  it('signs out access tokens issued before the reset, on every replica', async () => {
    const user = await signUpAndLogIn(t.url, 'signout');
    // A second gateway process on the same Postgres and Redis, like a second replica.
    const replica = await createTestApp();
    // Both replicas have seen (and cached) the principal before the reset.
    await t.http.get('/users/me').set(user.auth).expect(200);
    await replica.http.get('/users/me').set(user.auth).expect(200);
    // Token "iat" has one-second resolution: make sure the reset happens in a later second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const token = await requestReset(user);
    await t.http
      .post('/reset-password')
      .send({ token, new_password: 'fresh password here', confirm_password: 'fresh password here' })
      .expect(200);
    const res = await t.http.get('/users/me').set(user.auth).expect(401);
    expect(res.body).toEqual({ detail: 'Not authenticated. Please log in again.' });
    await replica.http.get('/users/me').set(user.auth).expect(401);
    await replica.close();
  });
});

describe('password recovery: same-second tokens and rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RESET_MAX_REQUESTS: '3',
      RESET_MAX_REQUESTS_PER_ADDRESS: '6',
      TRUST_PROXY_HOPS: '1',
    });
  });
  beforeEach(() => resetLoginThrottle(t.redis));
  afterAll(async () => {
    await resetLoginThrottle(t.redis);
    await t.close();
  });

  const forgot = (email: string, address: string) =>
    t.http.post('/auth/forgot-password').set('X-Forwarded-For', address).query({ email });

  it('signs out a token issued earlier in the same second as the password change', async () => {
    const user = await signUpAndLogIn(t.url, 'samesecond');
    const claims = JSON.parse(
      Buffer.from(user.token.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { iat: number };
    // The password changes later within the very second the token was issued in.
    await t.prisma.user.update({
      where: { id: user.id },
      data: { passwordChangedAt: new Date(claims.iat * 1000 + 999) },
    });
    await t.http.get('/users/me').set(user.auth).expect(401);
  });

  it('limits forgot-password per e-mail, whichever address asks', async () => {
    const email = `target_${randomUUID()}@example.com`;
    for (let i = 1; i <= 3; i += 1) await forgot(email, `198.51.100.${i}`).expect(200);
    const blocked = await forgot(email, '198.51.100.4');
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many password reset requests\. Try again in \d+ /);
  });

  it('limits forgot-password per address, whichever e-mail it names, above one e-mail’s limit', async () => {
    // An office behind one address: more people than one e-mail's limit each ask once.
    for (let i = 0; i < 6; i += 1) {
      await forgot(`someone_${randomUUID()}@example.com`, '203.0.113.7').expect(200);
    }
    await forgot(`someone_${randomUUID()}@example.com`, '203.0.113.7').expect(429);
  });

  it('limits reset-password attempts per address', async () => {
    const attempt = () =>
      t.http.post('/reset-password').set('X-Forwarded-For', '203.0.113.8').send({
        token: randomUUID(),
        new_password: 'whatever pass',
        confirm_password: 'whatever pass',
      });
    for (let i = 0; i < 6; i += 1) await attempt().expect(400);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many password reset requests\./);
  });
});
