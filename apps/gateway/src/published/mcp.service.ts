import {
  MCP_ASK_INPUT,
  MCP_ASK_OUTPUT,
  PREVIEW_QUESTION_MAX_LENGTH,
  type TMcpAskResult,
} from '@agentloom/contracts';
import type { AgentAccessKey } from '@agentloom/db';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HttpException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/env';
import { describePipeline, readConfig } from '../pipelines/pipeline-view';
import { collectAnswer, startAnswer } from './chat-stream';
import { AGENT_NOT_FOUND, PublishedAgentsService } from './published-agents.service';
import { PublishedRepository, type LivePublication } from './published.repository';

/** The agent's version as MCP clients see it: the server speaks for one published build. */
const SERVER_VERSION = '1.0.0';

/**
 * One MCP server per published agent: a single tool that asks it. The caller's access key was
 * checked by PublishedAgentsService.authorize (revocation, unpublish, rate limit) before this
 * runs; the question goes through PublishedAgentsService.chat like the API's, stored as a
 * conversation of that key that `conversation_id` continues.
 */
@Injectable()
export class McpAgentServers {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
    private readonly published: PublishedRepository,
  ) {}

  /** A server for this request (the transport is stateless: one server per HTTP request). */
  async serverFor(
    live: LivePublication,
    key: AgentAccessKey,
    response: Response,
  ): Promise<McpServer> {
    const pipeline = await this.published.pipelineOf(live);
    if (!pipeline) throw new NotFoundException(AGENT_NOT_FOUND);
    const summary = describePipeline(pipeline, readConfig(pipeline));
    const server = new McpServer(
      { name: pipeline.name, title: pipeline.name, version: SERVER_VERSION },
      {
        instructions:
          `${pipeline.name} is an Agentloom agent (${summary}). Ask it with the ` +
          `${toolName(pipeline.name)} tool; pass conversation_id to follow up on an answer.`,
      },
    );
    server.registerTool(
      toolName(pipeline.name),
      {
        title: `Ask ${pipeline.name}`,
        description:
          `Ask ${pipeline.name} a question (${summary}). It answers from its own data and ` +
          'returns the answer with its sources.',
        inputSchema: MCP_ASK_INPUT,
        outputSchema: MCP_ASK_OUTPUT,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ question, conversation_id }) => this.ask(live, key, response, question, conversation_id),
    );
    return server;
  }

  private async ask(
    live: LivePublication,
    key: AgentAccessKey,
    response: Response,
    question: string,
    conversationId: string | undefined,
  ): Promise<CallToolResult> {
    if (question.length > PREVIEW_QUESTION_MAX_LENGTH) {
      return failed(`A question can be at most ${PREVIEW_QUESTION_MAX_LENGTH} characters.`);
    }
    const silenceMs = this.config.PROVIDER_TIMEOUT_MS;
    let answer: Awaited<ReturnType<typeof collectAnswer>>;
    try {
      const started = await startAnswer(response, silenceMs, (signal) =>
        this.agents.chat(
          live,
          { message: question, conversationId, channel: 'api', accessKey: key },
          signal,
        ),
      );
      answer = await collectAnswer(started, silenceMs);
    } catch (error) {
      // An unknown conversation, an agent that cannot load: said to the model, in plain words.
      if (error instanceof HttpException) return failed(error.message);
      throw error;
    }
    if ('error' in answer) return failed(answer.error);
    const result: TMcpAskResult = {
      answer: answer.answer,
      sources: answer.sources,
      conversation_id: answer.conversation_id,
    };
    return {
      content: [{ type: 'text', text: asText(result) }],
      structuredContent: result,
    };
  }
}

/** A tool name MCP clients accept (letters, digits, _ and -; at most 64): `ask_<agent name>`. */
export function toolName(agentName: string): string {
  const slug = agentName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 56);
  return slug ? `ask_${slug}` : 'ask_agent';
}

/** The answer and its sources as one text, for clients that read only the text content. */
function asText(result: TMcpAskResult): string {
  const sources = result.sources
    .map((source, index) => `[${index + 1}] ${source.citation ?? source.sql ?? ''}`.trim())
    .filter((line) => line.length > 4);
  return sources.length ? `${result.answer}\n\nSources:\n${sources.join('\n')}` : result.answer;
}

function failed(detail: string): CallToolResult {
  return { content: [{ type: 'text', text: detail }], isError: true };
}
