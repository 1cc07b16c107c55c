/**
 * The database every system test shares (the runtime scale test derives one of its own from
 * it): SCALE_TEST_DATABASE_URL, so parallel checkouts and the apps' own suites never collide.
 */
export const SYSTEM_DATABASE_URL =
  process.env.SCALE_TEST_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/agentloom_scale_test';
