// What every jest config of the monorepo shares. Workspace packages resolve from their sources
// (packages/*/src), not their built dist/: a contracts edit is seen by the next test run with no
// rebuild, as vitest already does for the web app. Plain JavaScript so jest reads it unbuilt.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const source = (pkg, file = 'index.ts') => path.join(ROOT, 'packages', pkg, 'src', file);

/** `moduleNameMapper` entries: each `@agentloom/*` import (and its `/testing` entry) to source. */
export const workspaceSources = {
  '^@agentloom/agent-runtime/testing$': source('agent-runtime', 'testing/index.ts'),
  '^@agentloom/source-readers/testing$': source('source-readers', 'testing/fixtures.ts'),
  '^@agentloom/data-sources/testing$': source('data-sources', 'testing/index.ts'),
  '^@agentloom/(agent-runtime|contracts|data-sources|db|server-kit|source-readers|test-kit|vault)$':
    path.join(ROOT, 'packages/$1/src/index.ts'),
};

/** `testSequencer` of a config with tiers: the `unit` project's files run first. */
export const unitFirst = path.join(ROOT, 'jest.unit-first.mjs');

/** TypeScript through swc, with the decorator metadata NestJS needs. */
export const swcTransform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
    },
  ],
};

/**
 * An app's two tiers, as jest projects: `unit` (`*.spec.ts`: no database, in-memory
 * repositories, runs alone in seconds) and `database` (`*.e2e-spec.ts`: a fresh database made
 * from a template migrated once per set of migrations, by the app's global setup). Jest runs a
 * project's global setup only when one of its tests is selected, so a unit spec run alone never
 * touches Postgres. `npx jest --selectProjects unit` runs the unit tier on its own.
 */
export function appTiers({ globalSetup, setupFiles = [], testEnvironment = 'node' }) {
  const common = {
    rootDir: 'src',
    testEnvironment,
    transform: swcTransform,
    moduleNameMapper: workspaceSources,
    setupFiles,
  };
  return [
    { ...common, displayName: 'unit', testRegex: '\\.spec\\.ts$' },
    { ...common, displayName: 'database', testRegex: '\\.e2e-spec\\.ts$', globalSetup },
  ];
}
