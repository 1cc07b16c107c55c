import { createHmac } from 'node:crypto';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { routeInventory } from '../testing/route-inventory';

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function sign(
  payload: object,
  secret: string,
  header: object = { alg: 'HS256', typ: 'JWT' },
): string {
  const unsigned = `${b64url(header)}.${b64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Routes anyone may call; every other route must refuse a request without a valid token. */
const PUBLIC_ROUTES = [
  'GET /health',
  'GET /health/live',
  // Prometheus metrics: their own token (METRICS_TOKEN), never a user's; see metrics/.
  'GET /metrics',
  'POST /auth/signup',
  'POST /auth/login',
  'POST /auth/forgot-password',
  'POST /forgot-password',
  'POST /reset-password',
  'GET /users/avatars/:name',
  // Preview pages are framed by the web app, which cannot send a bearer header there: the
  // random, expiring token in the path is the access, checked on every call.
  'GET /p/_assets/:file',
  'GET /p/:token',
  'GET /p/:token/info',
  'POST /p/:token/ask',
  'GET /p/:token/passages/:passageId',
  'GET /p/:token/keys',
  'POST /p/:token/images',
  // Published agents: programs call them with one of the agent's access keys (checked on every
  // request); visitors use the share page and widget, which the owner turns on.
  'POST /agents/:id/chat',
  'POST /agents/:id/passages',
  'POST /v1/chat/completions',
  'GET /v1/models',
  'GET /v1/models/:id',
  'POST /agents/:id/mcp',
  'GET /agents/:id/mcp',
  'DELETE /agents/:id/mcp',
  'GET /w/widget.js',
  'GET /w/_assets/:file',
  'GET /w/:id/config',
  'GET /w/:id/chat',
  'GET /s/:id',
  'POST /w/:id/messages',
  'POST /w/:id/messages/:messageId/feedback',
  'POST /w/:id/passages',
];

const concrete = (route: string) =>
  route.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000').split(' ') as [
    string,
    string,
  ];

describe('access tokens and the route inventory', () => {
  let t: TestApp;
  let user: TestUser;
  let routes: string[];
  let protectedRoutes: string[];

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUpAndLogIn(t.url, 'jwt');
    routes = routeInventory(t.app.getHttpAdapter().getInstance());
    protectedRoutes = routes.filter((route) => !PUBLIC_ROUTES.includes(route));
  });
  afterAll(() => t.close());

  it('knows every route the app serves', () => {
    expect(routes).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
    expect(protectedRoutes).toEqual(
      expect.arrayContaining([
        'GET /users/me',
        'PUT /users/me',
        'GET /apikeys',
        'POST /apikeys',
        'DELETE /apikeys/:id',
        'GET /apikeys/:id/secret',
      ]),
    );
  });

  it('every non-public route refuses a request without a token', async () => {
    for (const route of protectedRoutes) {
      const [method, path] = concrete(route);
      const res = await t.http[method.toLowerCase() as 'get'](path);
      expect({ route, status: res.status, body: res.body }).toEqual({
        route,
        status: 401,
        body: { detail: 'Not authenticated. Please log in again.' },
      });
    }
  });

  const now = () => Math.floor(Date.now() / 1000);
  const badTokens: Array<[string, () => string]> = [
    [
      'expired',
      () => sign({ sub: user.id, iat: now() - 7200, exp: now() - 3600 }, t.config.JWT_SECRET),
    ],
    [
      'unsigned (alg: none)',
      () =>
        `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: user.id, iat: now(), exp: now() + 3600 })}.`,
    ],
    [
      'signed with another key',
      () =>
        sign(
          { sub: user.id, iat: now(), exp: now() + 3600 },
          'another-secret-another-secret-another-secret',
        ),
    ],
    ['malformed', () => 'not.a.jwt'],
    [
      'for a user that does not exist',
      () =>
        sign(
          { sub: '00000000-0000-4000-8000-000000000000', iat: now(), exp: now() + 3600 },
          t.config.JWT_SECRET,
        ),
    ],
    ['without a subject', () => sign({ iat: now(), exp: now() + 3600 }, t.config.JWT_SECRET)],
  ];

  it.each(badTokens)(
    'a token that is %s gets 401 on every protected route',
    async (_case, makeToken) => {
      const token = makeToken();
      for (const route of protectedRoutes) {
        const [method, path] = concrete(route);
        const res = await t.http[method.toLowerCase() as 'get'](path).set(
          'Authorization',
          `Bearer ${token}`,
        );
        expect({ route, status: res.status }).toEqual({ route, status: 401 });
      }
    },
  );

  it('a token we signed ourselves is accepted (the forgeries above fail for their flaw alone)', async () => {
    const token = sign(
      { sub: user.id, iat: now(), iat_ms: Date.now(), exp: now() + 3600 },
      t.config.JWT_SECRET,
    );
    await t.http.get('/users/me').set('Authorization', `Bearer ${token}`).expect(200);
  });
});
