import { signUpAndLogIn } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

describe('health, docs and the HTTP surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Telling "slow" from "up" is the fault suite's to prove (redis-faults), against a delay it
    // adds itself; here a loaded machine must not turn a healthy dependency "slow".
    t = await createTestApp({ HEALTH_SLOW_MS: '10000' });
  });
  afterAll(() => t.close());

  it('reports Postgres and Redis reachable', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up', mail: 'unknown' });
  });

  it('serves an OpenAPI document generated from the code, and Swagger UI', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    const paths = Object.keys(res.body.paths as object);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/auth/signup',
        '/auth/login',
        '/auth/forgot-password',
        '/forgot-password',
        '/reset-password',
        '/users/me',
        '/apikeys',
        '/apikeys/{id}',
        '/apikeys/{id}/secret',
        '/health',
      ]),
    );
    expect(res.body.components.schemas.SignupDto.required).toEqual(
      expect.arrayContaining(['username', 'email', 'password', 'confirm_password']),
    );
    const ui = await t.http.get('/docs').expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('allows the web origin through CORS and not others', async () => {
    const allowed = await t.http
      .options('/auth/login')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const other = await t.http
      .options('/auth/login')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers unknown routes and malformed bodies with {detail}', async () => {
    expect((await t.http.get('/no/such/route').expect(404)).body).toEqual({ detail: 'Not found.' });
    const bad = await t.http
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('{bad')
      .expect(400);
    expect(bad.body).toEqual({ detail: expect.any(String) });
  });

  it('sends security headers', async () => {
    const res = await t.http.get('/health/live').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('health with Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('answers 503 naming Redis as down, and still serves requests that do not need it', async () => {
    const res = await t.http.get('/health').expect(503);
    expect(res.body).toEqual({
      status: 'degraded',
      database: 'up',
      redis: 'down',
      mail: 'unknown',
    });
    await t.http.get('/health/live').expect(200);
  });

  it('still signs users up and in, and authenticates them from Postgres', async () => {
    const user = await signUpAndLogIn(t.url, 'noredis');
    const me = await t.http.get('/users/me').set(user.auth).expect(200);
    expect(me.body.email).toBe(user.email);
  });
});
