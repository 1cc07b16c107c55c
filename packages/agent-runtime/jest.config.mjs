import { swcTransform, workspaceSources } from '../../jest.workspace.mjs';

export default {
  testEnvironment: '<rootDir>/jest.environment.mjs',
  testRegex: '\\.spec\\.ts$',
  transform: swcTransform,
  moduleNameMapper: workspaceSources,
};
