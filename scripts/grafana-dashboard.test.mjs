// The Grafana dashboard (deploy/grafana/agentloom.json) must query only metrics the processes
// export: a renamed metric would leave a panel silently empty. Run by `npm test` (node --test).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dashboard = JSON.parse(
  readFileSync(path.join(root, 'deploy/grafana/agentloom.json'), 'utf8'),
);
// prom-client is a dependency of server-kit (the processes' registry).
const { collectDefaultMetrics, Registry } = createRequire(
  path.join(root, 'packages/server-kit/package.json'),
)('prom-client');

const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr));
const used = new Set(
  queries.flatMap((query) =>
    [...query.matchAll(/\b((?:agentloom|nodejs|process)_[a-z0-9_]+)\b/g)].map(([, name]) =>
      name.replace(/_(bucket|count|sum)$/, ''),
    ),
  ),
);

/** The sources of the apps and packages, where Agentloom's own metrics are defined. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', '.turbo'].includes(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.(e2e-)?spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

test('the dashboard queries only metrics the processes export', async () => {
  const code = ['apps', 'packages']
    .flatMap((folder) => sources(path.join(root, folder)))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const defaults = new Set((await registry.getMetricsAsJSON()).map((metric) => metric.name));
  assert.ok(used.size >= 8, `the dashboard queries ${[...used]}`);
  for (const name of used) {
    const ours = name.startsWith('agentloom_');
    const defined = ours
      ? code.includes(`\${METRICS_PREFIX}${name.slice('agentloom_'.length)}`)
      : defaults.has(name);
    assert.ok(defined, `${name} is queried by the dashboard but no process exports it`);
  }
});
