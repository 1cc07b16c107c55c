import { storedAnswers, type TAgentType, type TPipelineConfig } from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';
import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelineChanges, PipelinesRepository } from '../pipelines/pipelines.repository';
import { PIPELINE_NOT_FOUND, PipelinesService } from '../pipelines/pipelines.service';

/** Who is calling and which wizard: every step starts by finding the caller's own pipeline. */
export interface WizardCall<Kind extends TAgentType = TAgentType> {
  userId: string;
  sessionId: string;
  agentType: Kind;
}

/** The configuration of an agent of the given kind. */
export type ConfigOf<Kind extends TAgentType> = Extract<TPipelineConfig, { agent_type: Kind }>;

/** What every wizard step answers: the session, a sentence, and the fields as saved. */
export interface StepAnswer<Saved> {
  session_id: string;
  message: string;
  saved: Saved;
}

/** A wizard session opened by a step: the pipeline row and its configuration, read and checked. */
export interface OpenSession<Config extends TPipelineConfig = TPipelineConfig> {
  pipeline: Pipeline;
  config: Config;
}

/**
 * The wizard's hold on a pipeline (a "session" in the API's words): every step opens the caller's
 * pipeline, changes its configuration and saves it back with the columns it touched.
 */
@Injectable()
export class WizardSessions {
  constructor(
    private readonly pipelinesService: PipelinesService,
    private readonly pipelines: PipelinesRepository,
  ) {}

  /** The caller's pipeline of this wizard's kind, if it is not being built right now. */
  async open<Kind extends TAgentType>(
    call: WizardCall<Kind>,
  ): Promise<OpenSession<ConfigOf<Kind>>> {
    const pipeline = await this.pipelinesService.findOwned(
      call.userId,
      call.sessionId,
      call.agentType,
    );
    if (pipeline.status === 'Building') {
      throw new ConflictException(
        'This agent is being built. Wait for the build to finish before changing its configuration.',
      );
    }
    // findOwned refused a pipeline of another kind, and the configuration takes the row's kind.
    return { pipeline, config: readConfig(pipeline) as ConfigOf<Kind> };
  }

  async save({ pipeline, config }: OpenSession, changes: PipelineChanges = {}): Promise<void> {
    const updated = await this.pipelines.updateOwned(pipeline.id, pipeline.userId, {
      ...changes,
      config: storedAnswers(config),
    });
    if (!updated) throw new NotFoundException(PIPELINE_NOT_FOUND);
  }

  /** Bytes the owner's other agents' uploads take (the quota counts a replaced file out). */
  otherUploadsBytes(pipeline: Pipeline): Promise<number> {
    return this.pipelines.storedUploadBytes(pipeline.userId, pipeline.id);
  }

  answer<Saved>(pipeline: Pipeline, message: string, saved: Saved): StepAnswer<Saved> {
    return { session_id: pipeline.id, message, saved };
  }
}
