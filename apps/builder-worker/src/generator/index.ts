import { agentProjectName } from '@agentloom/contracts';
import path from 'node:path';
import { envVariables, renderEnvExample } from './environment';
import { CHUNKS_FILE, PROMPT_FILE, buildManifest, type AgentManifest } from './manifest';
import { curatedAnswersJson } from './curated-answers';
import { manifestSources } from './manifest-sources';
import { PROJECT_PARTS, templateFiles, type ProjectPart } from './project-files';
import { renderReadme } from './readme';
import {
  requirementsDevTxt,
  requirementsGpuLock,
  requirementsLock,
  requirementsTxt,
} from './requirements';
import { readTemplate, renderTemplate } from './templates';
import { ProjectInputError, type GeneratedFile, type ProjectInput } from './types';

/**
 * The generator of the product's output: a pipeline's stored configuration in, the files of a
 * standalone Python project out. Pure: no database, no queue; it reads only its templates and
 * the source file it is given.
 *
 * User strings (name, prompt, table, file and index names) only ever land in data files
 * (agent.json, prompts/system.txt, data/) or, escaped, in README.md. Templates are chosen and
 * filled from contracts enum values alone.
 */

export type {
  GeneratedFile,
  ProjectInput,
  ProjectCuratedAnswer,
  ProjectSource,
  SourceChunk,
  SourceDocument,
} from './types';
export { ProjectInputError } from './types';
export type { AgentManifest } from './manifest';
export { PROJECT_PARTS, type ProjectPart } from './project-files';
export { AGENT_MANIFEST_VERSION, RAG_DEFAULTS, SQL_DEFAULTS, buildManifest } from './manifest';
export { chunkDocumentBatches, chunkText } from './chunking';
export { writeChunksJsonl } from './chunks-jsonl';
export { TEMPLATES_DIR } from './templates';

/** The zip's top folder (contracts' agentProjectName), for a checked kind and id. */
export function projectFolderName(agentType: 'rag' | 'sql', sessionId: string): string {
  if (agentType !== 'rag' && agentType !== 'sql') {
    throw new ProjectInputError('agentType must be rag or sql.');
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) {
    throw new ProjectInputError('sessionId must be a UUID.');
  }
  return agentProjectName(agentType, sessionId);
}

/** A validated project: the input and the agent.json it describes. */
export interface ProjectPlan {
  input: ProjectInput;
  manifest: AgentManifest;
}

/** Checks the input can make a working project (ProjectInputError if not) and plans it. */
export function planProject(input: ProjectInput): ProjectPlan {
  return { input, manifest: buildManifest(input) };
}

/** The files of one part of the project (see PROJECT_PARTS). */
export async function generateProjectPart(
  plan: ProjectPlan,
  part: ProjectPart,
): Promise<GeneratedFile[]> {
  const { input, manifest } = plan;
  const files: GeneratedFile[] = [];
  if (part === 'code') {
    files.push(
      { path: 'agent.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
      // Written exactly as stored: no trimming, no newline added.
      { path: PROMPT_FILE, content: Buffer.from(input.config.system_prompt ?? '', 'utf8') },
      { path: 'requirements-dev.txt', content: requirementsDevTxt(manifest) },
      { path: 'README.md', content: await renderReadme(manifest, envVariables(manifest)) },
    );
  }
  if (part === 'models') {
    files.push(
      { path: '.env.example', content: renderEnvExample(envVariables(manifest)) },
      { path: 'requirements.txt', content: requirementsTxt(manifest) },
      { path: 'requirements.lock', content: requirementsLock(manifest) },
    );
    const gpu = requirementsGpuLock(manifest);
    if (gpu) files.push({ path: 'requirements-gpu.lock', content: gpu });
  }
  if (part === 'data') {
    if (manifest.type === 'rag') {
      files.push(...manifestSources(input, manifest.source).files);
    } else if (input.sourceFile && manifest.source.file) {
      files.push({ path: manifest.source.file, sourcePath: input.sourceFile.path });
    }
    if (input.chunksFile) files.push({ path: CHUNKS_FILE, sourcePath: input.chunksFile });
    files.push({ path: manifest.curated.file, content: curatedAnswersJson(input.curatedAnswers) });
  }
  for (const template of templateFiles(manifest).filter((file) => file.part === part)) {
    const text = await readTemplate(template.from);
    files.push({
      path: template.to,
      content: template.values ? renderTemplate(text, template.values) : text,
    });
  }
  return files;
}

/** The whole project at once: every part, paths checked, sorted. */
export async function generateProject(input: ProjectInput): Promise<GeneratedFile[]> {
  const plan = planProject(input);
  const files: GeneratedFile[] = [];
  for (const part of PROJECT_PARTS) files.push(...(await generateProjectPart(plan, part)));
  assertProjectPaths(files);
  return sortedByPath(files);
}

export function sortedByPath(files: GeneratedFile[]): GeneratedFile[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every path must stay inside the project folder once zipped. */
export function assertProjectPaths(files: readonly GeneratedFile[]): void {
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
