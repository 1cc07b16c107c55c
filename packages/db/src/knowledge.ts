import {
  primarySourceOf,
  readBuildInputs,
  readPipelineConfig,
  type TBuildSource,
  type TKnowledgeChange,
  type TPipelineConfig,
} from '@agentloom/contracts';
import type { Build, KnowledgeSource, Pipeline, PrismaClient } from '@prisma/client';
import { createHash, randomUUID } from 'node:crypto';
import { curatedAnswersForBuild } from './curated';

/**
 * The knowledge queries the gateway and the builder worker both make, written once: each app's
 * repository calls them with its own client (they are the apps' only Prisma code besides it).
 */

/** A digest of an encrypted value (as build snapshots keep them): another value, another digest. */
export function envelopeDigest(envelope: string | null): string | null {
  return envelope ? createHash('sha256').update(envelope).digest('base64url').slice(0, 16) : null;
}

/**
 * The wizard's source as the agent's first knowledge source: made when missing, brought up to
 * date (a new content version, waiting to be read) when the wizard's source changed since.
 */
export async function ensurePrimarySource(
  client: PrismaClient,
  pipeline: Pipeline,
  config: TPipelineConfig,
): Promise<KnowledgeSource | null> {
  if (config.agent_type !== 'rag') return null;
  const wanted = primarySourceOf(config, {
    sourceFile: pipeline.sourceFile,
    connectionDigest: envelopeDigest(pipeline.sourceUriEncrypted),
  });
  const existing = await client.knowledgeSource.findFirst({
    where: { pipelineId: pipeline.id, primary: true },
  });
  if (!wanted) return existing;
  const described = {
    kind: wanted.kind,
    sourceType: wanted.source_type,
    name: wanted.name,
    settings: wanted.settings,
    fingerprint: wanted.fingerprint,
  };
  if (!existing) {
    return client.knowledgeSource.create({
      data: {
        ...described,
        pipelineId: pipeline.id,
        userId: pipeline.userId,
        primary: true,
        lastChangedAt: new Date(),
      },
    });
  }
  if (existing.fingerprint === wanted.fingerprint) return existing;
  return client.knowledgeSource.update({
    where: { id: existing.id },
    data: {
      ...described,
      contentVersion: { increment: 1 },
      status: 'waiting',
      error: null,
      lastChangedAt: new Date(),
    },
  });
}

/** A source as a build's snapshot names it: which one, and which of its contents. */
export function buildSourceOf(source: KnowledgeSource): TBuildSource {
  return {
    id: source.id,
    kind: source.kind,
    source_type: source.sourceType,
    name: source.name,
    content_version: source.contentVersion,
    fingerprint: source.fingerprint,
  };
}

/** The agent's sources now (not removed): the wizard's first, then the others oldest first. */
export function activeSources(
  client: PrismaClient,
  pipelineId: string,
): Promise<KnowledgeSource[]> {
  return client.knowledgeSource.findMany({
    where: { pipelineId, status: { not: 'removed' } },
    orderBy: [{ primary: 'desc' }, { createdAt: 'asc' }],
  });
}

/**
 * Starts a build of the agent's knowledge as it is now on top of `base` (its newest Built build:
 * that build's configuration, not the draft's, so an unbuilt prompt edit never rides along), if
 * no build of the agent runs; null when one does (the change waits for it: the worker starts
 * another when it ends). The build row and the agent's Building status are one transaction.
 * Its curated answers are the agent's now, as its sources are.
 */
export async function startKnowledgeBuild(
  client: PrismaClient,
  pipeline: Pipeline,
  base: Build,
  trigger: 'knowledge' | 'refresh',
  changes: TKnowledgeChange[],
): Promise<Build | null> {
  const inputs = readBuildInputs(base.snapshot, pipeline.agentType);
  if (!inputs) return null;
  // The wizard's source is the first, whether or not anything listed the sources yet.
  const config = readPipelineConfig(pipeline.agentType, pipeline.config);
  if (config.success) await ensurePrimarySource(client, pipeline, config.data);
  const sources = (await activeSources(client, pipeline.id)).map(buildSourceOf);
  // Curated answers are the owner's content, like the sources: the build ships them as they are now.
  const curated_answers = await curatedAnswersForBuild(client, pipeline.id);
  return client.$transaction(async (tx) => {
    const { count } = await tx.pipeline.updateMany({
      where: { id: pipeline.id, status: { not: 'Building' } },
      data: { status: 'Building' },
    });
    if (count !== 1) return null;
    return tx.build.create({
      data: {
        id: randomUUID(),
        pipelineId: pipeline.id,
        userId: pipeline.userId,
        trigger,
        snapshot: { ...inputs, sources, curated_answers },
        knowledgeChanges: changes,
      },
    });
  });
}

/** The newest Built build of an agent: what a knowledge change builds on. */
export function latestBuiltBuild(client: PrismaClient, pipelineId: string): Promise<Build | null> {
  return client.build.findFirst({
    where: { pipelineId, status: 'Built', artifact: { not: null } },
    orderBy: { createdAt: 'desc' },
  });
}
