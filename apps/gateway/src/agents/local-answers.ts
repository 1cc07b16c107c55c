import type { AgentEvent, ChatTurn } from '@agentloom/agent-runtime';
import {
  HttpException,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { AgentLoader, type LoadedAgent } from './agent-loader';
import { AgentsRepository } from './agents.repository';
import { LoadedAgents } from './loaded-agents';

export const AGENT_NOT_FOUND = 'No published agent has this id.';

/** The key a published build's agent is loaded under (beside previews' tokens). */
export const publishedAgentKey = (buildId: string) => `published:${buildId}`;

/** The publication fields an answer needs: which build to load, and whose agent it is. */
export interface AnswerTarget {
  pipelineId: string;
  buildId: string;
  userId: string;
}

/** A question as the answering side gets it: the caller is checked, the memory gathered. */
export interface AnswerRequest {
  target: AnswerTarget;
  message: string;
  history: ChatTurn[];
}

/**
 * Answers in this process: the published build's agent, loaded once per process and build and
 * kept while it is used. The gateway uses it when no runtime replicas are set, and each
 * runtime replica uses it for the questions the gateway sends it.
 */
@Injectable()
export class LocalAnswers {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly loader: AgentLoader,
    private readonly loaded: LoadedAgents,
  ) {}

  /**
   * The agent's events for one question. Resolves once the agent is loaded, so an agent that
   * cannot start is an HTTP error (404, 422), not an event in a stream.
   */
  async open(request: AnswerRequest, signal: AbortSignal): Promise<AsyncGenerator<AgentEvent>> {
    const agent = await this.agentOf(request.target);
    return agent.ask(request.message, signal, request.history);
  }

  private agentOf(target: AnswerTarget): Promise<LoadedAgent> {
    return this.loaded
      .agent(publishedAgentKey(target.buildId), `published:${target.userId}`, async () => {
        const agent = await this.agents.publishedBuild(target);
        // Unpublished or moved to another build since this question began.
        if (!agent) throw new NotFoundException(AGENT_NOT_FOUND);
        return this.loader.loadBuild(agent.pipeline, agent.build);
      })
      .catch((error: unknown) => {
        if (error instanceof HttpException) throw error;
        throw new UnprocessableEntityException(
          `The agent could not start: ${(error as Error).message}`,
        );
      });
  }
}
