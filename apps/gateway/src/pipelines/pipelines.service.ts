import {
  isUuid,
  maskApiKey,
  NEW_RAG_RETRIEVAL,
  TAgentType,
  TCreatePipelineRequest,
  TPipelineCreated,
  TPipelineDetail,
  TPipelineListItem,
  TRenamePipelineRequest,
} from '@agentloom/contracts';
import { Pipeline, Prisma, UNIQUE_VIOLATION } from '@agentloom/db';
import {
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineSecrets } from './pipeline-secrets';
import { PipelineStorage } from './pipeline-storage';
import { MaskedSecrets, toDetail, toListItem } from './pipeline-view';
import { PipelinesRepository } from './pipelines.repository';

export const PIPELINE_NOT_FOUND = 'Agent not found.';

/** The user's agents: creation (the wizard's first step), the list, the details and deletion. */
@Injectable()
export class PipelinesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesRepository,
    private readonly secrets: PipelineSecrets,
    private readonly storage: PipelineStorage,
  ) {}

  async create(userId: string, request: TCreatePipelineRequest): Promise<TPipelineCreated> {
    const maxPipelines = this.config.MAX_PIPELINES_PER_USER;
    let pipeline: Pipeline | null;
    try {
      pipeline = await this.pipelines.create(
        {
          id: randomUUID(),
          userId,
          name: request.name,
          nameKey: request.name.toLowerCase(),
          agentType: request.agent_type,
          // A new RAG agent answers only from its sources (agents made before keep their way).
          config: request.agent_type === 'rag' ? { retrieval: NEW_RAG_RETRIEVAL } : {},
        },
        maxPipelines,
      );
    } catch (error) {
      throw nameTakenOr(error, request.name);
    }
    if (!pipeline) {
      throw new HttpException(
        {
          detail: `You have ${maxPipelines} agents, the most an account may keep. Delete one to create another.`,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    return {
      session_id: pipeline.id,
      id: pipeline.id,
      name: pipeline.name,
      agent_type: pipeline.agentType,
      status: pipeline.status,
      created_at: pipeline.createdAt.toISOString(),
    };
  }

  async list(userId: string): Promise<TPipelineListItem[]> {
    return (await this.pipelines.listByOwner(userId)).map(toListItem);
  }

  async detail(userId: string, id: string): Promise<TPipelineDetail> {
    const pipeline = await this.findOwned(userId, id);
    return toDetail(pipeline, this.maskSecrets(pipeline));
  }

  /** A new name, under the same rule as creating: one agent per name (case aside) per user. */
  async rename(
    userId: string,
    id: string,
    request: TRenamePipelineRequest,
  ): Promise<TPipelineDetail> {
    try {
      if (!isUuid(id) || !(await this.pipelines.renameOwned(id, userId, request.name))) {
        throw new NotFoundException(PIPELINE_NOT_FOUND);
      }
    } catch (error) {
      throw nameTakenOr(error, request.name);
    }
    return this.detail(userId, id);
  }

  /** Removes the pipeline, then its files; the row goes first so nothing points at missing files. */
  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.pipelines.deleteOwned(id, userId))) {
      throw new NotFoundException(PIPELINE_NOT_FOUND);
    }
    await this.storage.removeAll(id);
  }

  /**
   * The caller's pipeline of the given kind. Someone else's id, a malformed id and an id of the
   * other wizard's kind all get the same 404 as an id that does not exist.
   */
  async findOwned(userId: string, id: string, agentType?: TAgentType): Promise<Pipeline> {
    const pipeline = isUuid(id) ? await this.pipelines.findOwned(id, userId) : null;
    if (!pipeline || (agentType && pipeline.agentType !== agentType)) {
      throw new NotFoundException(PIPELINE_NOT_FOUND);
    }
    return pipeline;
  }

  private maskSecrets(pipeline: Pipeline): MaskedSecrets {
    const reveal = (field: 'llm_api_key' | 'vector_db_api_key', envelope: string | null) =>
      envelope ? maskApiKey(this.secrets.decrypt(pipeline, field, envelope)) : null;
    return {
      llmApiKey: reveal('llm_api_key', pipeline.llmApiKeyEncrypted),
      vectorDbApiKey: reveal('vector_db_api_key', pipeline.vectorDbApiKeyEncrypted),
    };
  }
}

/** One agent per name (case aside) per user: the unique index's refusal, said plainly. */
function nameTakenOr(error: unknown, name: string): unknown {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === UNIQUE_VIOLATION
    ? new ConflictException(`You already have an agent named "${name}". Choose another name.`)
    : error;
}
