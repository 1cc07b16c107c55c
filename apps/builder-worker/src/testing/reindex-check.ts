import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess, type ProcessRun } from './run-process';

/**
 * The steps of the generated agents' incremental index check, shared by the generator's spec
 * (the machine's Python) and the live check (the project's own locked libraries, real stores):
 * run `python -m agent index`, add, replace and remove sources the way README.md tells the
 * owner to, and see which texts reached the embeddings stand-in.
 */

/** The texts the stand-in was asked to embed with `key`, from its `from`-th request on. */
export function embeddedTexts(llm: LlmTestServer, key: string, from: number): string[] {
  return llm.requests
    .slice(from)
    .filter(
      (request) =>
        request.path === '/v1/embeddings' && request.headers.authorization === `Bearer ${key}`,
    )
    .flatMap((request) => {
      const input = (request.body as { input?: string | string[] } | undefined)?.input;
      return Array.isArray(input) ? input : input === undefined ? [] : [input];
    });
}

interface SourceEntry {
  key: string;
  name: string;
  kind: string;
  type: string;
  file?: string;
}

async function editSources(dir: string, edit: (sources: SourceEntry[]) => SourceEntry[]) {
  const file = path.join(dir, 'agent.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as { sources: SourceEntry[] };
  manifest.sources = edit(manifest.sources);
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** README's "Add a file": the file into data/, an entry into agent.json's sources. */
export async function addTextSource(dir: string, key: string, name: string, text: string) {
  await writeFile(path.join(dir, 'data', name), text);
  await editSources(dir, (sources) => [
    ...sources,
    { key, name, kind: 'file', type: 'text_file', file: `data/${name}` },
  ]);
}

/** README's "Remove a source": its entry out of agent.json, its file out of data/. */
export async function removeSource(dir: string, key: string) {
  let file: string | undefined;
  await editSources(dir, (sources) => {
    file = sources.find((source) => source.key === key)?.file;
    return sources.filter((source) => source.key !== key);
  });
  if (file) await rm(path.join(dir, file), { force: true });
}

/** What one `python -m agent index` printed last (its report), with the run. */
export async function runIndex(
  python: string,
  dir: string,
  env: Record<string, string>,
): Promise<{ run: ProcessRun; said: string }> {
  const run = await runProcess(python, ['-m', 'agent', 'index'], dir, 600_000, env);
  const said = (run.status === 0 ? run.stdout : run.stderr).trim().split('\n').at(-1) ?? '';
  return { run, said };
}

/** "Embedded 2 new passages, kept 5, removed 0." as numbers. */
export function reportCounts(said: string): { embedded: number; kept: number; removed: number } {
  const nothing = /^Nothing changed: embedded nothing, kept ([\d,]+) passages\.$/.exec(said);
  if (nothing) return { embedded: 0, kept: Number(nothing[1]!.replace(/,/g, '')), removed: 0 };
  const counts = /^Embedded ([\d,]+) new passages, kept ([\d,]+), removed ([\d,]+)\.$/.exec(said);
  if (!counts) throw new Error(`Not an index report: ${said}`);
  const [embedded, kept, removed] = counts.slice(1).map((n) => Number(n.replace(/,/g, '')));
  return { embedded: embedded!, kept: kept!, removed: removed! };
}
