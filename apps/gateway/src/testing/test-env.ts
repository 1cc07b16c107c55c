// Runs in every test file before anything is imported: the settings the test app boots with.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentloom_test';

Object.assign(process.env, {
  NODE_ENV: 'test',
  DATABASE_URL: TEST_DATABASE_URL,
  DATABASE_POOL_SIZE: '4',
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  JWT_SECRET: 'test-secret-for-agentloom-gateway-tests-only-0123456789',
  // Random bytes: a predictable master key is refused at start.
  VAULT_MASTER_KEY: 'RGaWhq8l8eCHPLTb9hvrjRq7nf/C4hx7IiwAovec1Yc=',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'agentloom-gw-')),
  PUBLIC_URL: 'http://localhost:5173',
  LOG_LEVEL: 'silent',
  // Suites sign up dozens of accounts from 127.0.0.1; auth.e2e-spec.ts tests the real limit.
  SIGNUP_MAX_REQUESTS: '100000',
  // A queue namespace of its own per run: test builds never reach a developer's worker.
  QUEUE_PREFIX: `agentloom-test-${process.pid}`,
});
