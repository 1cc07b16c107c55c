// What the repository says about its workspaces and CI, for scripts/check-dockerfiles.mjs: the
// npm workspaces and their scripts, CI's turbo task graph (`npm test`, `npm run lint`) and
// .ci/run's install commands.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const read = (file) => readFileSync(path.join(root, file), 'utf8');
export const rootPackage = JSON.parse(read('package.json'));

/** name → { dir, scripts } for every npm workspace. */
export const workspaces = new Map();
for (const pattern of rootPackage.workspaces) {
  const base = pattern.replace(/\/\*$/, '');
  for (const entry of readdirSync(path.join(root, base), { withFileTypes: true })) {
    const dir = `${base}/${entry.name}`;
    if (!entry.isDirectory() || !existsSync(path.join(root, dir, 'package.json'))) continue;
    const manifest = JSON.parse(read(`${dir}/package.json`));
    workspaces.set(manifest.name, { dir, scripts: manifest.scripts ?? {} });
  }
}
export const workspaceAt = (dir) => [...workspaces].find(([, ws]) => ws.dir === dir)?.[0];

export function turboDry(args) {
  const output = execFileSync(
    path.join(root, 'node_modules', '.bin', 'turbo'),
    ['run', ...args, '--dry=json'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  return JSON.parse(output.slice(output.indexOf('{'))).tasks.map((task) => ({
    id: task.taskId,
    workspace: task.package,
    task: task.task,
    command: task.command,
  }));
}
/** What CI runs: `npm test` (turbo run test) and `npm run lint` (turbo run typecheck, …). */
export const ciTasks = turboDry(['test', 'typecheck']).filter(
  (task) => task.command !== '<NONEXISTENT>',
);
export const ciTaskIds = new Set(ciTasks.map((task) => task.id));

/** The install commands of .ci/run, normalised (`npm ci …`, then its `npm install …` fallback). */
export const ciInstalls = read('.ci/run')
  .split('\n')
  .map((line) => line.match(/^\s*(?:if !\s+)?(npm (?:ci|install)(?: --[a-z-]+)*)/)?.[1])
  .filter(Boolean);

/** How CI runs workspace `name`'s script `script`: a task of its graph, or each of its commands. */
export function ciRuns(name, script) {
  if (ciTaskIds.has(`${name}#${script}`)) return `CI runs ${name}#${script} (turbo task graph)`;
  const workspace = workspaces.get(name);
  const parts = workspace.scripts[script].split(/\s*&&\s*/);
  const configs = readdirSync(path.join(root, workspace.dir))
    .filter((file) => /\.config\.[cm]?[jt]s$/.test(file))
    .map((file) => read(`${workspace.dir}/${file}`));
  const where = parts.map((part) => {
    const task = ciTasks.find(
      (candidate) => candidate.workspace === name && candidate.command.includes(part),
    );
    if (task) return `\`${part}\` in ${task.id}`;
    if (configs.some((config) => config.includes(part))) {
      return `\`${part}\` in ${name}'s test configuration (run by ${name}#test)`;
    }
    return null;
  });
  if (where.every(Boolean)) return `CI runs every command of it: ${where.join('; ')}`;
  return null;
}
