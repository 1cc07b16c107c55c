import { readBuildInputs, ZKnowledgeSourceSettings } from '@agentloom/contracts';
import type { Build, KnowledgeSource, Pipeline } from '@agentloom/db';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ProjectSource } from '../generator';
import type { ArtifactStore } from './artifact-store';

/** What reading a build's knowledge sources needs: their rows, and the uploads' files. */
export interface SourceRows {
  sources(ids: string[]): Promise<KnowledgeSource[]>;
}

/**
 * The knowledge sources a RAG build's project ships (agent.json's `sources`): those its snapshot
 * names, in its order, each file fetched from the object store with its digest. Undefined for
 * builds that name none (made before knowledge sources): the wizard's source alone.
 */
export async function projectSources(
  build: Build,
  pipeline: Pipeline,
  rows: SourceRows,
  artifacts: Pick<ArtifactStore, 'sourceFile'>,
): Promise<ProjectSource[] | undefined> {
  const named = readBuildInputs(build.snapshot, pipeline.agentType)?.sources;
  if (!named || pipeline.agentType !== 'rag') return undefined;
  const byId = new Map((await rows.sources(named.map((s) => s.id))).map((row) => [row.id, row]));
  const sources: ProjectSource[] = [];
  for (const { id } of named) {
    const row = byId.get(id);
    if (!row) continue;
    const source = await projectSource(row, pipeline, artifacts);
    if (source) sources.push(source);
  }
  return sources;
}

/**
 * The key the downloaded project records a source's passages under: the wizard's source is
 * `source` (as in projects of builds made before many sources), every other its id. Not the wizard
 * source's id, so an exported agent imported by another account builds the same agent.json.
 */
export function projectSourceKey(source: Pick<KnowledgeSource, 'id' | 'primary'>): string {
  return source.primary ? 'source' : source.id;
}

async function projectSource(
  row: KnowledgeSource,
  pipeline: Pipeline,
  artifacts: Pick<ArtifactStore, 'sourceFile'>,
): Promise<ProjectSource | null> {
  const parsed = ZKnowledgeSourceSettings.safeParse(row.settings);
  if (!parsed.success) return null;
  const settings = parsed.data;
  const common = { key: projectSourceKey(row), name: row.name };
  if (row.kind === 'file' && settings.file) {
    const stored = settings.file.stored_name;
    const path = (await artifacts.sourceFile(pipeline.id, stored)) ?? '';
    return {
      ...common,
      // The wizard's file ships as the project's `sourceFile` (data/source.<ext>).
      primary: row.primary && stored === pipeline.sourceFile,
      file: {
        type: row.sourceType,
        path,
        ...(path && { sha256: await sha256Of(path).catch(() => undefined) }),
        ...(settings.file.sheet !== undefined && { sheet: settings.file.sheet }),
      },
    };
  }
  if (row.kind === 'table' && settings.table) {
    const { type, database, table } = settings.table;
    return { ...common, table: { type, database, table } };
  }
  if (row.kind === 'web' && settings.web) {
    const { url, max_pages, sitemap } = settings.web;
    return { ...common, web: { url, max_pages, sitemap } };
  }
  return null;
}

/** The SHA-256 of a file, streamed: the project compares it with the file it finds in data/. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}
