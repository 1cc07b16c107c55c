import { appTiers, unitFirst } from '../../jest.workspace.mjs';

export default {
  projects: appTiers({
    globalSetup: '<rootDir>/testing/global-setup.ts',
    setupFiles: ['<rootDir>/testing/test-env.ts'],
  }),
  testTimeout: 30_000,
  testSequencer: unitFirst,
};
