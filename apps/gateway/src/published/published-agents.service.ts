import type { AgentEvent, ChatTurn } from '@agentloom/agent-runtime';
import { randomUUID } from 'node:crypto';
import { ACCESS_KEY_PREFIX, isUuid, type TAnswerSource } from '@agentloom/contracts';
import type { AgentAccessKey, ConversationChannel } from '@agentloom/db';
import {
  BadRequestException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';
import { countPublishedAnswer } from '../metrics/gateway-metrics';
import { AccessKeyUses } from './access-key-uses';
import {
  ConversationsRepository,
  type Caller,
  type ConversationStart,
} from './conversations.repository';
import { AGENT_NOT_FOUND, LocalAnswers } from '../agents/local-answers';
import { hashAccessKey } from './publications.service';
import {
  PublishedRepository,
  type LivePublication,
  type NamedPublication,
} from './published.repository';
import { RateLimiter } from './rate-limiter';
import { RuntimeReplicas } from './runtime-replicas';

export { AGENT_NOT_FOUND };
export const INVALID_ACCESS_KEY =
  'This access key is not valid or was revoked. Send a key of this agent as "Authorization: Bearer al_…".';
export const CONVERSATION_NOT_FOUND =
  'This conversation does not exist for this agent. Leave conversation_id out to start a new one.';

/** What a published agent says while it answers: the agent's events, framed by the conversation. */
export type ChatEvent =
  | AgentEvent
  | { type: 'conversation'; conversation_id: string }
  | { type: 'saved'; message_id: string; sources: TAnswerSource[] };

export interface ChatInput {
  message: string;
  channel: ConversationChannel;
  /** Continue this stored conversation (its last turns are the memory). */
  conversationId?: string | null;
  /** Or: the earlier turns the caller sent itself (OpenAI's API is stateless). */
  history?: ChatTurn[];
  accessKey?: AgentAccessKey;
  /** The widget or share-page visitor session asking (visitor-access.ts). */
  visitorHash?: string;
}

/**
 * The memory a question is given, in characters for each remembered question-and-answer pair: a
 * question (at most 2,000) and an answer of about as much. The same budget holds for the turns
 * stored with a conversation and for those an OpenAI-style caller sends in `messages`.
 */
export const MEMORY_CHARACTERS_PER_TURN = 4_000;

/** Answers for published agents: who may call, the loaded agent, memory and stored turns. */
@Injectable()
export class PublishedAgentsService {
  private readonly logger = new Logger(PublishedAgentsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly published: PublishedRepository,
    private readonly conversations: ConversationsRepository,
    private readonly local: LocalAnswers,
    private readonly replicas: RuntimeReplicas,
    private readonly limiter: RateLimiter,
    private readonly keyUses: AccessKeyUses,
  ) {}

  /**
   * The published agent a bearer access key may call. A missing, unknown or revoked key is 401;
   * a key of another agent, an agent that is not published or does not exist are all the same
   * 404 (nothing says whether someone else's agent exists). Over the key's rate limit is 429.
   */
  async authorize(
    authorization: string | undefined,
    agentId: string,
  ): Promise<{ live: LivePublication; key: AgentAccessKey }> {
    const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!secret?.startsWith(ACCESS_KEY_PREFIX)) throw new UnauthorizedException(INVALID_ACCESS_KEY);
    const found = await this.published.findKeyWithPublication(hashAccessKey(secret));
    const key = found?.key;
    if (!key || key.revokedAt) throw new UnauthorizedException(INVALID_ACCESS_KEY);
    const live = key.pipelineId === agentId ? found.live : null;
    if (!live || live.userId !== key.userId) throw new NotFoundException(AGENT_NOT_FOUND);
    await this.limiter.take(`key:${key.id}`, key.rateLimitPerMinute);
    this.keyUses.count(key.id);
    return { live, key };
  }

  /** The publication behind a widget or share page, or 404 (not published, or malformed id). */
  async findLive(agentId: string): Promise<NamedPublication> {
    const live = isUuid(agentId) ? await this.published.findNamed(agentId) : null;
    if (!live) throw new NotFoundException(AGENT_NOT_FOUND);
    return live;
  }

  /**
   * One message answered: `conversation` first, then the agent's events, then `saved` once the
   * question and the complete answer are stored, then `done`. A failed answer is not stored.
   */
  async *chat(
    live: LivePublication,
    input: ChatInput,
    signal: AbortSignal,
  ): AsyncGenerator<ChatEvent> {
    const caller = {
      channel: input.channel,
      accessKeyId: input.accessKey?.id ?? null,
      visitorHash: input.visitorHash ?? null,
    };
    const turns = this.config.PUBLISHED_MEMORY_TURNS;
    // Another key, another visitor or another channel gets the 404 of an unknown id.
    const continued = input.conversationId
      ? await this.conversations.findOfCallerWithMemory(
          input.conversationId,
          live.pipelineId,
          caller,
          2 * turns,
        )
      : null;
    if (input.conversationId && !continued) throw new NotFoundException(CONVERSATION_NOT_FOUND);
    // A new conversation is stored with its first exchange (one statement less per question).
    const conversation = continued
      ? { id: continued.id }
      : {
          id: randomUUID(),
          start: { pipelineId: live.pipelineId, userId: live.userId, ...caller },
        };
    const history = boundedMemory(continued?.messages ?? input.history ?? [], turns);
    // On the runtime replicas when there are any (the gateway stays thin), else right here.
    const runtime = this.replicas.enabled ? this.replicas : this.local;
    const events = await runtime.open({ target: live, message: input.message, history }, signal);
    yield { type: 'conversation', conversation_id: conversation.id };
    let stored = false;
    try {
      let answer = '';
      let unanswered = false;
      const sources: TAnswerSource[] = [];
      for await (const event of events) {
        if (event.type === 'done') continue; // said after the answer is stored
        yield event;
        if (event.type === 'token') answer += event.text;
        else if (event.type === 'retrieval') {
          unanswered = event.unanswered === true;
          sources.push(
            // The passage and the build it is of: what the citation opens, later too.
            ...event.sources.map(({ id, citation, snippet, score }) => ({
              id,
              build_id: live.buildId,
              citation,
              snippet,
              score,
            })),
          );
        } else if (event.type === 'curated') sources.push(curatedSource(event));
        else if (event.type === 'sql') sources.push({ sql: event.sql });
        else if (event.type === 'error') return;
      }
      if (signal.aborted) return;
      const saved = await this.conversations.addExchange(
        conversation,
        input.message,
        answer,
        sources,
        unanswered,
      );
      stored = true;
      yield { type: 'saved', message_id: saved.id, sources };
      yield { type: 'done' };
    } finally {
      countPublishedAnswer(
        live.pipelineId,
        stored ? 'answered' : signal.aborted ? 'cancelled' : 'failed',
      );
      // The caller was given the id: a conversation whose first answer failed or was cut off
      // still exists, so it can be continued (a failed answer itself is not stored).
      if (!stored && conversation.start) await this.keepEmpty(conversation.id, conversation.start);
    }
  }

  private async keepEmpty(id: string, start: ConversationStart): Promise<void> {
    await this.conversations.create({ id, ...start }).catch((error: unknown) => {
      this.logger.warn(
        `Keeping conversation ${id} after a failed answer: ${(error as Error).message}`,
      );
    });
  }

  /** A visitor's thumbs up or down on an answer of a conversation this visitor started. */
  async feedback(
    agentId: string,
    messageId: string,
    { conversation_id: conversationId, rating }: { conversation_id: string; rating: 'up' | 'down' },
    caller: Caller,
  ): Promise<void> {
    const found =
      isUuid(messageId) &&
      (await this.conversations.findOfCaller(conversationId, agentId, caller)) !== null &&
      (await this.conversations.setFeedback(messageId, conversationId, rating === 'up' ? 1 : -1));
    if (!found) throw new NotFoundException('This answer was not found in this conversation.');
  }

  /** Counts a visitor's message (widget and share page): per agent and address. */
  visitorRateLimit(agentId: string, visitor: string): Promise<void> {
    return this.limiter.take(
      `visitor:${agentId}:${visitor}`,
      this.config.PUBLISHED_VISITOR_RATE_PER_MINUTE,
    );
  }
}

/** A curated answer's source, as stored and sent with the answer: the question it was written for. */
export function curatedSource(event: Extract<AgentEvent, { type: 'curated' }>): TAnswerSource {
  return {
    citation: 'Curated answer',
    snippet: event.question,
    score: event.similarity,
    curated: true,
  };
}

/**
 * The newest turns that fit the memory: at most `turns` question-and-answer pairs and
 * MEMORY_CHARACTERS_PER_TURN characters for each. The oldest turn that still fits in part keeps
 * its end (the words nearest the question); older ones are left out.
 */
export function boundedMemory(history: ChatTurn[], turns: number): ChatTurn[] {
  let budget = turns * MEMORY_CHARACTERS_PER_TURN;
  const kept: ChatTurn[] = [];
  for (const turn of history.slice(-2 * turns).reverse()) {
    if (budget <= 0) break;
    const content = turn.content.length > budget ? turn.content.slice(-budget) : turn.content;
    kept.unshift({ role: turn.role, content });
    budget -= content.length;
  }
  return kept;
}

/** The turns an OpenAI-style `messages` list holds before its last user message. */
export function splitOpenAiMessages(messages: { role: string; content: unknown }[]): {
  question: string;
  history: ChatTurn[];
} {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : '';
  const turns = messages.filter((m) => m.role === 'user' || m.role === 'assistant');
  const last = turns.at(-1);
  if (!last || last.role !== 'user' || !text(last.content).trim()) {
    throw new BadRequestException('messages must end with a user message that has text.');
  }
  return {
    question: text(last.content).trim(),
    history: turns
      .slice(0, -1)
      .map((m) => ({ role: m.role as ChatTurn['role'], content: text(m.content) })),
  };
}
