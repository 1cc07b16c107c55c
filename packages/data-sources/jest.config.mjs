import { swcTransform, workspaceSources } from '../../jest.workspace.mjs';

// Two tiers like the apps': `unit` needs nothing running; `database` probes the real MariaDB and
// Postgres servers on 127.0.0.1 (no migrated database of its own, so no global setup).
const common = {
  rootDir: 'src',
  testEnvironment: 'node',
  transform: swcTransform,
  moduleNameMapper: workspaceSources,
};

export default {
  projects: [
    { ...common, displayName: 'unit', testRegex: '\\.spec\\.ts$' },
    { ...common, displayName: 'database', testRegex: '\\.e2e-spec\\.ts$' },
  ],
};
