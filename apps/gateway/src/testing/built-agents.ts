import { agentProjectName, type TChunkLine } from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import type { PrismaClient } from '@agentloom/db';
import archiver from 'archiver';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';

/**
 * Marks a configured agent Built the way the builder-worker leaves it — a Built build row and
 * its zip under DATA_DIR/artifacts — so preview tests need no worker. The zip holds what the
 * preview reads from it: `<type>-agent-<id>/data/chunks.jsonl`. (The worker's real output is
 * previewed end to end in the web app's browser test.)
 */
export async function markBuilt(
  prisma: PrismaClient,
  dataDir: string,
  pipeline: { id: string; userId: string; type: 'rag' | 'sql' },
  chunks: TChunkLine[] = [],
): Promise<string> {
  const buildId = randomUUID();
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
