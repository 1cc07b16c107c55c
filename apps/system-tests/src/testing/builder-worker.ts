/**
 * What the system tests take from the builder-worker's own test support: its configuration
 * (the deployment every process shares), seeding, and running its build as a process. One seam,
 * named here, so the cross-app suites never reach further into the worker than this file.
 */
export type { WorkerConfig } from '../../../builder-worker/src/config/env';
export { BUILD_INTERRUPTED } from '../../../builder-worker/src/builds/build.processor';
export { AppProcess, assertBuilt } from '../../../builder-worker/src/testing/app-process';
export {
  seedRagBuild,
  testPrisma,
  testWorkerConfig,
} from '../../../builder-worker/src/testing/build-fixtures';
export { freePort, RedisServer } from '../../../builder-worker/src/testing/redis-server';
export { S3TestServer } from '../../../builder-worker/src/testing/s3-test-server';
export {
  startWorkerProcess,
  workerEnvironment,
} from '../../../builder-worker/src/testing/worker-process';
