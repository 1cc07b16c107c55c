import { swcTransform, workspaceSources } from '../../jest.workspace.mjs';

// Every spec here runs the apps as real processes over a real database: one tier.
export default {
  rootDir: 'src',
  testEnvironment: 'node',
  testRegex: '\\.e2e-spec\\.ts$',
  transform: swcTransform,
  moduleNameMapper: workspaceSources,
  testTimeout: 60_000,
  globalSetup: '<rootDir>/testing/global-setup.ts',
  setupFiles: ['<rootDir>/testing/test-env.ts'],
};
