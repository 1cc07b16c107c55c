import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { envVariables, renderEnvExample } from './environment';
import { CHUNKS_FILE, PROMPT_FILE, buildManifest } from './manifest';
import { templateFiles } from './project-files';
import { renderReadme } from './readme';
import { requirementsDevTxt, requirementsTxt } from './requirements';
import { readTemplate, renderTemplate } from './templates';
import {
  ProjectInputError,
  type GeneratedFile,
  type ProjectInput,
  type SourceChunk,
} from './types';

/**
 * The generator of the product's output: a pipeline's stored configuration in, the files of a
 * standalone Python project out. Pure: no database, no queue; it reads only its templates and
 * the source file it is given.
 *
 * User strings (name, prompt, table, file and index names) only ever land in data files
 * (agent.json, prompts/system.txt, data/) or, escaped, in README.md. Templates are chosen and
 * filled from contracts enum values alone.
 */

export type { GeneratedFile, ProjectInput, SourceChunk } from './types';
export { ProjectInputError } from './types';
export type { AgentManifest } from './manifest';
export { AGENT_MANIFEST_VERSION, RAG_DEFAULTS, SQL_DEFAULTS, buildManifest } from './manifest';
export { chunkText } from './chunking';
export { TEMPLATES_DIR } from './templates';

/** The zip's top folder: `${agentType}-agent-${sessionId}`. */
export function projectFolderName(agentType: 'rag' | 'sql', sessionId: string): string {
  if (agentType !== 'rag' && agentType !== 'sql') {
    throw new ProjectInputError('agentType must be rag or sql.');
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) {
    throw new ProjectInputError('sessionId must be a UUID.');
  }
  return `${agentType}-agent-${sessionId}`;
}

export async function generateProject(input: ProjectInput): Promise<GeneratedFile[]> {
  const manifest = buildManifest(input);
  const variables = envVariables(manifest);
  const files: GeneratedFile[] = [
    { path: 'agent.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
    // Written exactly as stored: no trimming, no newline added.
    { path: PROMPT_FILE, content: Buffer.from(input.config.system_prompt ?? '', 'utf8') },
    { path: '.env.example', content: renderEnvExample(variables) },
    { path: 'requirements.txt', content: requirementsTxt(manifest) },
    { path: 'requirements-dev.txt', content: requirementsDevTxt(manifest) },
    { path: 'README.md', content: await renderReadme(manifest, variables) },
  ];
  if (input.sourceFile && manifest.source.file) {
    files.push({ path: manifest.source.file, content: await readFile(input.sourceFile.path) });
  }
  if (input.chunks) {
    files.push({ path: CHUNKS_FILE, content: chunksJsonl(input.chunks) });
  }
  for (const template of templateFiles(manifest)) {
    const text = await readTemplate(template.from);
    files.push({
      path: template.to,
      content: template.values ? renderTemplate(text, template.values) : text,
    });
  }
  assertProjectPaths(files);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One JSON object per line. JSON escapes every newline inside a value, so lines stay whole. */
function chunksJsonl(chunks: readonly SourceChunk[]): string {
  const ids = new Set<string>();
  const lines = chunks.map((chunk, index) => {
    if (typeof chunk.id !== 'string' || chunk.id === '' || typeof chunk.text !== 'string') {
      throw new ProjectInputError(`Chunk ${index} needs a non-empty string id and a text.`);
    }
    if (ids.has(chunk.id)) throw new ProjectInputError(`Chunk id ${chunk.id} is repeated.`);
    ids.add(chunk.id);
    for (const key of ['page', 'row'] as const) {
      const value = chunk[key];
      if (value !== undefined && !Number.isInteger(value)) {
        throw new ProjectInputError(`Chunk ${chunk.id}: ${key} must be a whole number.`);
      }
    }
    const { id, text, source, page, row } = chunk;
    return JSON.stringify({ id, text, source: String(source ?? ''), page, row });
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Every path must stay inside the project folder once zipped. */
function assertProjectPaths(files: readonly GeneratedFile[]): void {
  const seen = new Set<string>();
  for (const { path: file } of files) {
    const normalized = path.posix.normalize(file);
    const unsafe =
      file === '' ||
      file !== normalized ||
      file.startsWith('/') ||
      file.includes('\\') ||
      file.includes('\0') ||
      file.split('/').some((part) => part === '..' || part === '.' || part === '');
    if (unsafe) throw new Error(`Refusing to generate the unsafe path ${JSON.stringify(file)}.`);
    if (seen.has(file)) throw new Error(`Two generated files share the path ${file}.`);
    seen.add(file);
  }
}
