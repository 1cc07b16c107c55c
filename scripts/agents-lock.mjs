#!/usr/bin/env node
// Re-resolves the generated agents' Python dependencies (needs PyPI): for each universe in
// apps/builder-worker/src/generator/requirements.ts it writes templates/locks/<universe>.in from
// the pins and resolves it with uv into <universe>.lock, every package pinned with its hashes.
// uv keeps the versions the current lock holds wherever the pins allow (its --output-file
// preference): a new pin moves only what it must. AGENTS_LOCK_UPGRADE=1 resolves afresh.
// The lock's first line records the .in's sha256, so a test notices a pin changed without a new
// lock. Run after editing PINS: `npm run agents:lock`.
//
// The locks are universal (uv's --universal): every entry carries the hashes of the wheels of
// every platform and Python PyPI serves, with markers where a package is only for some.
// torch-cpu.lock is PyTorch's CPU build of the same release for Linux x86_64 and Python 3.11
// (the agents' Docker image); it is not on PyPI: uv finds it in AGENTS_TORCH_FIND_LINKS (a
// folder or page of wheels; default /opt/wheels where it exists, else PyTorch's CPU index).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { UNIVERSES, universeInput } = require(
  path.join(root, 'apps/builder-worker/dist/generator/requirements.js'),
);
const { LOCKS_DIR } = require(path.join(root, 'apps/builder-worker/dist/generator/lock-file.js'));
const { pythonTools } = require(
  path.join(root, 'apps/builder-worker/dist/testing/python-tools.js'),
);
const { uv, torchFindLinks: findLinks } = pythonTools();

mkdirSync(LOCKS_DIR, { recursive: true });
for (const universe of UNIVERSES) {
  const input = universeInput(universe);
  const inFile = path.join(LOCKS_DIR, `${universe}.in`);
  const lockFile = path.join(LOCKS_DIR, `${universe}.lock`);
  writeFileSync(inFile, input);
  // uv prefers the versions already in its output file: the current lock, in a scratch folder.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'agents-lock-'));
  const output = path.join(scratch, `${universe}.lock`);
  if (existsSync(lockFile) && process.env.AGENTS_LOCK_UPGRADE !== '1') {
    writeFileSync(output, readFileSync(lockFile));
  }
  execFileSync(
    uv,
    [
      'pip',
      'compile',
      `${universe}.in`,
      '--generate-hashes',
      '--no-header',
      '--universal',
      // The oldest Python the agents support; the markers cover the newer ones.
      '--python-version',
      '3.11',
      '--output-file',
      output,
      '--quiet',
    ],
    { cwd: LOCKS_DIR, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const resolved = readFileSync(output, 'utf8');
  rmSync(scratch, { recursive: true, force: true });
  const hash = createHash('sha256').update(input).digest('hex');
  writeFileSync(
    lockFile,
    [
      `# input-sha256: ${hash}`,
      `# Resolved from ${universe}.in by \`npm run agents:lock\` (uv --universal, Python 3.11+).`,
      '# Do not edit: change the pins in apps/builder-worker/src/generator/requirements.ts.',
      resolved,
    ].join('\n'),
  );
  const count = resolved.split('\n').filter((line) => /^[a-z0-9]/i.test(line)).length;
  console.log(`${universe}: ${count} packages locked in ${path.relative(root, lockFile)}`);
}

// The CPU build of the locked torch, for the Docker image (Linux x86_64, Python 3.11).
const torchPin = universeInput('main')
  .split('\n')
  .find((line) => line.startsWith('torch=='));
const cpu = execFileSync(
  uv,
  [
    'pip',
    'compile',
    '-',
    '--generate-hashes',
    '--no-header',
    '--python-version',
    '3.11',
    '--python-platform',
    'x86_64-manylinux_2_28',
    '--find-links',
    findLinks,
  ],
  { input: `${torchPin}+cpu\n`, encoding: 'utf8', stdio: ['pipe', 'pipe', 'inherit'] },
);
writeFileSync(
  path.join(LOCKS_DIR, 'torch-cpu.lock'),
  [
    `# ${torchPin}'s CPU build (Linux x86_64, Python 3.11), resolved by \`npm run agents:lock\`.`,
    cpu,
  ].join('\n'),
);
console.log(`torch-cpu: ${torchPin}+cpu locked`);
