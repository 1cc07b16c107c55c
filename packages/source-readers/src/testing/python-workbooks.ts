import { execFileSync } from 'node:child_process';
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

/** The Python libraries that write the workbooks, pinned: what a Python developer uploads. */
const WRITERS = ['openpyxl==3.1.5', 'pandas==2.2.3', 'XlsxWriter==3.2.0'];

/**
 * A virtual environment with openpyxl, pandas and XlsxWriter, made once under
 * /var/cache/agentloom (or ~/.cache/agentloom where that cannot be written; AGENTS_CACHE_DIR
 * overrides both, as for the generated agents' checks) and kept between runs.
 */
export function workbookWritersPython(): string {
  const venv = path.join(cacheDir(), 'xlsx-writers');
  const python = path.join(venv, 'bin', 'python');
  const complete = path.join(venv, '.complete');
  const recipe = WRITERS.join('\n');
  if (!existsSync(complete) || readFileSync(complete, 'utf8') !== recipe) {
    rmSync(venv, { recursive: true, force: true });
    execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', ...WRITERS], { stdio: 'inherit' });
    writeFileSync(complete, recipe);
  }
  return python;
}

function cacheDir(): string {
  if (process.env.AGENTS_CACHE_DIR) return process.env.AGENTS_CACHE_DIR;
  try {
    mkdirSync('/var/cache/agentloom', { recursive: true });
    accessSync('/var/cache/agentloom', constants.W_OK);
    return '/var/cache/agentloom';
  } catch {
    return path.join(os.homedir(), '.cache', 'agentloom');
  }
}

/** Runs `script` with the writers' Python in `dir` (the script writes its files there). */
export function writeWithPython(dir: string, script: string): void {
  execFileSync(workbookWritersPython(), ['-c', script], { cwd: dir, stdio: 'inherit' });
}
