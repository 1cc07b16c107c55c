#!/usr/bin/env node
// npm run agents:audit — pip-audit over every lock of the generated agents (templates/locks), so a
// known vulnerability in any package a zip can install is found before users install it. It asks
// PyPI's vulnerability data (pip-audit's default service), which needs the internet: a run where
// nothing could be audited says so and fails, rather than reporting "no known vulnerabilities".
// Exit 0: every package audited, none vulnerable. Exit 1: vulnerabilities (listed). Exit 2: the
// service could not be reached, or packages went unaudited (torch's CPU build is not on PyPI and
// is checked as the same version of PyPI's torch instead).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { LOCKS_DIR, UNIVERSES } = require(
  path.join(root, 'apps/builder-worker/dist/generator/requirements.js'),
);
const { pythonTools } = require(
  path.join(root, 'apps/builder-worker/dist/testing/python-tools.js'),
);
const { pipAudit } = pythonTools();

let worst = 0;
for (const universe of UNIVERSES) {
  // PyTorch's CPU build (2.x.y+cpu) is audited as PyPI's 2.x.y: the same source release.
  const lock = readFileSync(path.join(LOCKS_DIR, `${universe}.lock`), 'utf8');
  const pins = lock
    .split('\n')
    .filter((line) => /^[a-z0-9]/i.test(line))
    .map((line) => line.replace(/ \\$/, '').replace(/\+cpu$/, ''));
  const file = path.join(os.tmpdir(), `agentloom-audit-${universe}.txt`);
  writeFileSync(file, `${pins.join('\n')}\n`);
  const run = spawnSync(
    pipAudit,
    ['-r', file, '--no-deps', '--disable-pip', '-f', 'json', '--progress-spinner', 'off'],
    {
      encoding: 'utf8',
    },
  );
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    console.error(`${universe}: pip-audit gave no report:\n${run.stderr.slice(-2000)}`);
    worst = Math.max(worst, 2);
    continue;
  }
  const skipped = report.dependencies.filter((dependency) => dependency.skip_reason);
  const vulnerable = report.dependencies.filter((dependency) => dependency.vulns?.length);
  console.log(
    `${universe}: ${pins.length} packages, ${pins.length - skipped.length} audited, ` +
      `${vulnerable.length} with known vulnerabilities, ${skipped.length} not audited`,
  );
  for (const dependency of vulnerable) {
    for (const vuln of dependency.vulns) {
      console.log(
        `  ${dependency.name} ${dependency.version}: ${vuln.id} (fixed in ${vuln.fix_versions.join(', ') || 'no release'})`,
      );
    }
  }
  if (skipped.length) {
    console.log(
      `  not audited: ${skipped
        .slice(0, 5)
        .map((d) => `${d.name} (${d.skip_reason})`)
        .join('; ')}${skipped.length > 5 ? '; …' : ''}`,
    );
    worst = Math.max(worst, 2);
  }
  if (vulnerable.length) worst = Math.max(worst, 1);
}
if (worst === 2)
  console.log('\nSome packages could not be audited (is the vulnerability service reachable?).');
process.exit(worst === 2 ? 2 : worst);
