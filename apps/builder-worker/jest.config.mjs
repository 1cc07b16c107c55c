import { appTiers } from '../../jest.workspace.mjs';

export default {
  projects: appTiers({ globalSetup: '<rootDir>/testing/global-setup.ts' }),
  testTimeout: 60_000,
};
