// Runs in every test file before anything is imported: the worker's test configuration
// (testWorkerConfig) reads its database from here, so every process shares the system tests' one.
import { SYSTEM_DATABASE_URL } from './system-database';

process.env.WORKER_TEST_DATABASE_URL = SYSTEM_DATABASE_URL;
