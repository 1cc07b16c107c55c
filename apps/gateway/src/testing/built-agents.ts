import {
  chunkHash,
  embedderOrKeyword,
  writeSegment,
  type SegmentChunk,
} from '@agentloom/agent-runtime';
import {
  agentProjectName,
  DEFAULT_EMBEDDING_MODEL,
  embeddingSpec,
  readPipelineConfig,
  type THostedIndex,
  type TChunkLine,
} from '@agentloom/contracts';
import { LocalObjectStore, storeKeys } from '@agentloom/server-kit';
import type { PrismaClient } from '@agentloom/db';
import { WIZARD_LLM_KEY } from '@agentloom/test-kit';
import archiver from 'archiver';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';

/** Where a test's built agent embeds, as the worker would: the stand-in's address, the cache. */
export interface BuiltIndexSettings {
  OPENAI_BASE_URL?: string;
  MODEL_CACHE_DIR: string;
}

/**
 * Marks a configured agent Built the way the builder-worker leaves it — a Built build row, its
 * zip under DATA_DIR/artifacts and, for a RAG agent given `chunks`, its hosted index: one
 * segment of those chunks embedded with the agent's own model (through the OpenAI stand-in, or
 * full-text when the model cannot be used), written with the worker's own writer — so preview
 * and published-agent tests need no worker. (The worker's real output is answered end to end in
 * the system tests and the web app's browser test.)
 */
export async function markBuilt(
  prisma: PrismaClient,
  dataDir: string,
  pipeline: { id: string; userId: string; type: 'rag' | 'sql' },
  chunks: TChunkLine[] = [],
  index?: BuiltIndexSettings,
): Promise<string> {
  const buildId = randomUUID();
  const hostedIndex =
    pipeline.type === 'rag' && chunks.length > 0 && index
      ? await writeIndex(prisma, dataDir, pipeline.id, chunks, index)
      : undefined;
  const artifact = storeKeys.artifactName(buildId);
  const folder = path.join(dataDir, storeKeys.artifacts(pipeline.id));
  await mkdir(folder, { recursive: true });
  const zip = archiver('zip');
  const written = finished(zip.pipe(createWriteStream(path.join(folder, artifact))));
  zip.append(chunks.map((chunk) => `${JSON.stringify(chunk)}\n`).join(''), {
    name: `${agentProjectName(pipeline.type, pipeline.id)}/data/chunks.jsonl`,
  });
  zip.append('{}', { name: `${agentProjectName(pipeline.type, pipeline.id)}/agent.json` });
  await zip.finalize();
  await written;
  await prisma.build.create({
    data: {
      id: buildId,
      pipelineId: pipeline.id,
      userId: pipeline.userId,
      status: 'Built',
      artifact,
      startedAt: new Date(),
      finishedAt: new Date(),
      ...(hostedIndex && { hostedIndex }),
    },
  });
  await prisma.pipeline.update({ where: { id: pipeline.id }, data: { status: 'Built' } });
  return buildId;
}

/** The chunks the worker makes of a CSV: one per row, "column: value" lines, cited by row. */
export function csvChunks(fileName: string, header: string[], rows: string[][]): TChunkLine[] {
  return rows.map((row, index) => ({
    id: `chunk-${String(index).padStart(6, '0')}`,
    source: fileName,
    row: index + 1,
    text: header.map((column, at) => `${column}: ${row[at] ?? ''}`).join('\n'),
  }));
}

/** One base segment of `chunks`, embedded as the worker would for this agent. */
async function writeIndex(
  prisma: PrismaClient,
  dataDir: string,
  pipelineId: string,
  chunks: TChunkLine[],
  settings: BuiltIndexSettings,
): Promise<THostedIndex> {
  const pipeline = await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } });
  const config = readPipelineConfig('rag', pipeline.config).data;
  const model = (config?.agent_type === 'rag' && config.embedding_model) || DEFAULT_EMBEDDING_MODEL;
  const openai = embeddingSpec(model).backend === 'openai' && config?.llm?.provider === 'openai';
  const embedder = await embedderOrKeyword(model, {
    openaiKey: openai ? WIZARD_LLM_KEY : null,
    baseUrl: settings.OPENAI_BASE_URL,
    cacheDir: settings.MODEL_CACHE_DIR,
  });
  const segmentId = randomUUID();
  const location = new LocalObjectStore(dataDir).folderLocation(
    storeKeys.indexSegment(pipelineId, segmentId),
  );
  const keyed: SegmentChunk[] = chunks.map((chunk) => ({
    ...chunk,
    key: chunk.id,
    hash: chunkHash(chunk.text),
  }));
  const { info } = await writeSegment({
    location,
    model,
    embedder,
    role: 'base',
    chunks: [keyed],
  });
  return {
    engine: 'lancedb',
    mode: info.mode,
    embedding_model: model,
    dimensions: info.dimensions,
    chunks: info.chunks,
    ann: info.graph,
    ...(info.graph && { graph: true }),
    ...(info.note && { note: info.note }),
    segments: [
      {
        id: segmentId,
        source_id: randomUUID(),
        role: 'base',
        chunks: info.chunks,
        removed: 0,
        graph: info.graph,
      },
    ],
  };
}
