import { readPassage, type PassageTable } from '@agentloom/agent-runtime';
import { isUuid, PASSAGE_NOT_FOUND, ZHostedIndex, type TPassageView } from '@agentloom/contracts';
import type { Build } from '@agentloom/db';
import { Injectable, NotFoundException } from '@nestjs/common';
import { BuildsRepository } from '../builds/builds.repository';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { PipelinesService } from '../pipelines/pipelines.service';
import { passageView } from './passage-view';

/** Who is asking, and so which build's passages they may open. */
export type PassageReader =
  /** The agent's owner: its newest Built build, or the one named. */
  | { by: 'owner'; userId: string; agentId: string; buildId?: string }
  /** A preview link (its owner, agent and build) or a published agent's visitor (its build). */
  | { by: 'build'; userId: string; agentId: string; buildId: string };

/**
 * Citations you can open: a cited passage, with its neighbours, read from the build's own index
 * (never the uploaded file). Each reader sees only the passages of the build it may talk to;
 * anything else — an unknown id, another agent's or another build's passage, another owner's
 * agent — is the same 404.
 */
@Injectable()
export class PassagesService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly storage: PipelineStorage,
  ) {}

  async open(reader: PassageReader, passageId: string): Promise<TPassageView> {
    const build = await this.buildOf(reader);
    if (!build) throw new NotFoundException(PASSAGE_NOT_FOUND);
    const read = await readPassage(this.tablesOf(build), passageId);
    if (!read) throw new NotFoundException(PASSAGE_NOT_FOUND);
    return passageView(build.id, read);
  }

  private async buildOf(reader: PassageReader): Promise<Build | null> {
    if (reader.by === 'owner') {
      // Another owner's agent, or none: the agents' own 404.
      const pipeline = await this.pipelines.findOwned(reader.userId, reader.agentId);
      if (!reader.buildId) return this.builds.latestBuiltOwned(pipeline.id, reader.userId);
      return this.builtOf(pipeline.id, reader.userId, reader.buildId);
    }
    return this.builtOf(reader.agentId, reader.userId, reader.buildId);
  }

  /** The build, only when it is a Built build of this agent and owner. */
  private async builtOf(agentId: string, userId: string, buildId: string): Promise<Build | null> {
    const build = isUuid(buildId) ? await this.builds.findById(buildId) : null;
    const ours = build?.pipelineId === agentId && build.userId === userId;
    return ours && build.status === 'Built' ? build : null;
  }

  /** The tables of the build's index: its segments, or the one table of an older build. */
  private tablesOf(build: Build): PassageTable[] {
    const parsed = ZHostedIndex.safeParse(build.hostedIndex);
    if (!parsed.success) return [];
    const { segments } = parsed.data;
    if (!segments) {
      const location = this.storage.hostedIndexLocation(build.pipelineId, build.id);
      return [{ location, sourceId: null, removed: 0, empty: false }];
    }
    return segments.map((segment) => ({
      location: this.storage.segmentLocation(build.pipelineId, segment.id),
      sourceId: segment.source_id,
      removed: segment.removed,
      empty: segment.chunks === 0,
    }));
  }
}
