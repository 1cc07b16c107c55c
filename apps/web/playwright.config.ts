import { defineConfig, devices } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Browser end-to-end tests: the real gateway and builder-worker (their dist/ builds) on their own
 * ports against a dedicated Postgres database and Redis queue namespace, and the web app built
 * once and served by `vite preview`, which forwards the gateway's paths to it (one origin, as
 * under npm start). Chromium is Debian's (`.ci/run` installs it).
 *
 * The browser opens the app at 127.0.0.1 (project `chromium`, every spec) and at localhost
 * (project `localhost`, the specs that sign up, log in, build and preview): the bundle names
 * no host, so both work. any-host.spec.ts also opens it on a second loopback address.
 */
export const E2E = {
  // Overridable so two checkouts (or two people) can run the suite side by side.
  gatewayPort: Number(process.env.E2E_GATEWAY_PORT ?? 18000),
  webPort: Number(process.env.E2E_WEB_PORT ?? 15173),
  /** The local OpenAI/Anthropic/Gemini-compatible server the previews' provider calls reach. */
  llmPort: Number(process.env.E2E_LLM_PORT ?? 18090),
  databaseUrl:
    process.env.E2E_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentloom_web_e2e',
  dataDir: path.join(tmpdir(), `agentloom-web-e2e-${process.env.E2E_GATEWAY_PORT ?? 18000}`),
};
export const GATEWAY_URL = `http://127.0.0.1:${E2E.gatewayPort}`;
export const WEB_URL = `http://127.0.0.1:${E2E.webPort}`;
const WEB_URL_LOCALHOST = `http://localhost:${E2E.webPort}`;
export const LLM_URL = `http://127.0.0.1:${E2E.llmPort}`;

// Both processes must share the vault key (the worker decrypts what the gateway stored).
const serverEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: E2E.databaseUrl,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: `agentloom-e2e-${process.pid}`,
  DATA_DIR: E2E.dataDir,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
};

export default defineConfig({
  testDir: './e2e',
  outputDir: `./test-results/${E2E.webPort}`,
  // One browser at a time: the machine has two cores and also runs the gateway and the worker.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: `playwright-report/${E2E.webPort}` }],
  ],
  use: {
    baseURL: WEB_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'] } },
    {
      name: 'localhost',
      testMatch: ['auth.spec.ts', 'build-live.spec.ts', 'image.spec.ts', 'smoke.spec.ts'],
      use: { ...devices['Desktop Chrome'], baseURL: WEB_URL_LOCALHOST },
    },
  ],
  webServer: [
    {
      command: 'node e2e/llm-test-server.mjs',
      port: E2E.llmPort,
      env: { LLM_TEST_SERVER_PORT: String(E2E.llmPort) },
      reuseExistingServer: false,
    },
    {
      // Migrations first: the e2e database is created on the first run.
      command: 'node ../../scripts/db-migrate.mjs && node ../gateway/dist/main.js',
      url: `${GATEWAY_URL}/health/live`,
      env: {
        ...serverEnv,
        PORT: String(E2E.gatewayPort),
        HOST: '127.0.0.1',
        // The browser reaches the gateway through the web app's origin only: no CORS needed.
        PUBLIC_URL: WEB_URL,
        // Production refuses loopback data sources; the specs' MariaDB and Postgres live there.
        DATA_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
        LOGIN_MAX_FAILURES: '1000',
        RESET_MAX_REQUESTS: '1000',
        SIGNUP_MAX_REQUESTS: '1000',
        OPENAI_BASE_URL: `${LLM_URL}/v1`,
        GROQ_BASE_URL: `${LLM_URL}/v1`,
        DEEPSEEK_BASE_URL: `${LLM_URL}/v1`,
        ANTHROPIC_BASE_URL: `${LLM_URL}/anthropic/v1`,
        GEMINI_BASE_URL: `${LLM_URL}/v1beta`,
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
    },
    {
      // The worker has no port; it is ready once it has connected, well before the first build.
      command: 'node ../builder-worker/dist/main.js',
      env: { ...serverEnv, WORKER_CONCURRENCY: '2' },
      reuseExistingServer: false,
    },
    {
      // Every address (not just 127.0.0.1): any-host.spec.ts opens the app on 127.0.0.2 too.
      command: `vite build --outDir dist-e2e/${E2E.webPort} --emptyOutDir && vite preview --outDir dist-e2e/${E2E.webPort} --port ${E2E.webPort} --strictPort --host 0.0.0.0`,
      url: WEB_URL,
      env: { GATEWAY_URL },
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
