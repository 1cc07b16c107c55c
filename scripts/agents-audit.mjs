#!/usr/bin/env node
// npm run agents:audit — known vulnerabilities in every package a generated agent can install
// (the locks under apps/builder-worker/templates/locks), found before users install them.
//
// pip-audit first, with PyPI's vulnerability data for each exact version. Where that data
// cannot be had (some mirrors of PyPI answer the project's JSON but not a version's, as on this
// workplace's machines), each package is checked against its project JSON instead: its
// `vulnerabilities` are those of the latest release, so they are authoritative for a package
// locked at its latest release, and a package locked below it is reported as not audited.
//
// Advisories that no release fixes yet are listed with their reason in
// apps/builder-worker/src/generator/known-vulnerabilities.ts (and in each affected zip's README).
// Exit 1: an advisory that is not listed there. Exit 2: packages went unaudited (with
// --allow-unaudited, as CI runs it, they are reported and do not fail the run). Else exit 0.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(root, 'apps/builder-worker/dist', file));
const { UNIVERSES } = dist('generator/requirements.js');
const { LOCKS_DIR, packageName } = dist('generator/lock-file.js');
const { ACCEPTED_VULNERABILITIES } = dist('generator/known-vulnerabilities.js');
const { pythonTools } = dist('testing/python-tools.js');

const allowUnaudited = process.argv.includes('--allow-unaudited');
const PYPI_JSON = process.env.PYPI_JSON_URL ?? 'https://pypi.org/pypi';

/** name==version for every package of a lock; torch's CPU build is PyPI's torch of that version. */
function lockedPins(universe) {
  return readFileSync(path.join(LOCKS_DIR, `${universe}.lock`), 'utf8')
    .split('\n')
    .filter((line) => /^[a-z0-9]/i.test(line))
    .map((line) => {
      // A universal lock's entry may carry a marker: `scipy==1.17.1 ; python_full_version …`.
      const [name, version] = line
        .replace(/ \\$/, '')
        .replace(/\s*;.*$/, '')
        .split('==');
      return { name: packageName(name), version: version.replace(/\+cpu$/, '') };
    });
}

/** pip-audit's findings per package, or undefined for the packages it could not audit. */
function pipAudit(universe, pins) {
  const file = path.join(os.tmpdir(), `agentloom-audit-${universe}.txt`);
  writeFileSync(file, pins.map((pin) => `${pin.name}==${pin.version}`).join('\n') + '\n');
  const run = spawnSync(
    pythonTools().pipAudit,
    ['-r', file, '--no-deps', '--disable-pip', '-f', 'json', '--progress-spinner', 'off'],
    { encoding: 'utf8' },
  );
  const found = new Map();
  try {
    for (const dependency of JSON.parse(run.stdout).dependencies) {
      if (dependency.skip_reason) continue;
      found.set(
        packageName(dependency.name),
        dependency.vulns.map((vuln) => ({
          id: vuln.id,
          aliases: vuln.aliases ?? [],
          fix: vuln.fix_versions,
        })),
      );
    }
  } catch {
    // No report at all (the service refused every request): every package falls back.
  }
  return found;
}

/** The latest release's advisories from the project JSON, when `version` is that release. */
async function latestReleaseAudit(pin) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await fetch(`${PYPI_JSON}/${pin.name}/json`, {
        signal: AbortSignal.timeout(20_000),
      });
      if (!response.ok) return { reason: `PyPI answered ${response.status}` };
      const project = await response.json();
      if (project.info.version !== pin.version) {
        return { reason: `locked below the latest release (${project.info.version})` };
      }
      return {
        vulns: project.vulnerabilities
          .filter((vuln) => !vuln.withdrawn)
          .map((vuln) => ({ id: vuln.id, aliases: vuln.aliases ?? [], fix: vuln.fixed_in ?? [] })),
      };
    } catch (error) {
      if (attempt === 3)
        return { reason: `PyPI could not be reached (${error.cause?.code ?? error.name})` };
    }
  }
}

async function inBatches(items, size, work) {
  const results = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  }
  return results;
}

function accepted(pin, vuln) {
  return ACCEPTED_VULNERABILITIES.find(
    (entry) =>
      packageName(entry.package) === pin.name &&
      entry.version === pin.version &&
      [vuln.id, ...vuln.aliases].some((id) => entry.ids.includes(id) || entry.cve === id),
  );
}

let unlisted = 0;
let unaudited = 0;
for (const universe of UNIVERSES) {
  const pins = lockedPins(universe);
  const byPipAudit = pipAudit(universe, pins);
  const rest = pins.filter((pin) => !byPipAudit.has(pin.name));
  const fallback = await inBatches(rest, 8, async (pin) => ({
    pin,
    ...(await latestReleaseAudit(pin)),
  }));

  const findings = [];
  const notAudited = [];
  // One advisory is often published under several ids (GHSA, PYSEC, CVE): report it once.
  const seen = new Set();
  const add = (pin, vulns) => {
    for (const vuln of vulns) {
      const ids = [vuln.id, ...vuln.aliases].map((id) => `${pin.name} ${id}`);
      if (ids.some((id) => seen.has(id))) continue;
      ids.forEach((id) => seen.add(id));
      findings.push({ pin, vuln });
    }
  };
  for (const pin of pins) add(pin, byPipAudit.get(pin.name) ?? []);
  for (const result of fallback) {
    if (result.vulns) add(result.pin, result.vulns);
    else notAudited.push(`${result.pin.name} ${result.pin.version}: ${result.reason}`);
  }
  const byLatest = fallback.length - notAudited.length;
  console.log(
    `${universe}: ${pins.length} packages — ${byPipAudit.size} audited by pip-audit, ${byLatest} by ` +
      `their latest release's PyPI data, ${notAudited.length} not audited; ` +
      `${findings.length} known vulnerabilities`,
  );
  for (const { pin, vuln } of findings) {
    const entry = accepted(pin, vuln);
    const fix = vuln.fix.length ? `fixed in ${vuln.fix.join(', ')}` : 'no fixed release';
    console.log(
      `  ${entry ? 'listed' : 'NEW   '} ${pin.name} ${pin.version}: ` +
        `${[vuln.id, ...vuln.aliases].join(' / ')} (${fix})` +
        (entry ? ` — ${entry.reason}` : ''),
    );
    if (!entry) unlisted++;
  }
  for (const line of notAudited) console.log(`  not audited: ${line}`);
  unaudited += notAudited.length;
}

if (unlisted > 0) {
  console.log(
    `\n${unlisted} vulnerabilities are not listed in known-vulnerabilities.ts: upgrade the pin ` +
      '(npm run agents:lock), or list it there with the reason the agents are not exposed.',
  );
  process.exit(1);
}
if (unaudited > 0 && !allowUnaudited) process.exit(2);
console.log(
  `\nNo known vulnerability beyond the listed ones${unaudited ? ` (${unaudited} packages not audited, above)` : ''}.`,
);
