import { spawn } from 'node:child_process';
import os from 'node:os';

export interface ProcessRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end (killed after `timeoutMs`) with a clean environment, plus `env`
 * (a live check's service addresses).
 */
export function runProcess(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 90_000,
  env: Record<string, string> = {},
): Promise<ProcessRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      // No API keys or proxies from the developer's shell leak into the projects' tests.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: os.tmpdir(),
        LANG: 'C.UTF-8',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
