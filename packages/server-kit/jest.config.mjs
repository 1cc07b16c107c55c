import { swcTransform, workspaceSources } from '../../jest.workspace.mjs';

export default {
  testEnvironment: 'node',
  testRegex: '\\.spec\\.ts$',
  transform: swcTransform,
  moduleNameMapper: workspaceSources,
};
