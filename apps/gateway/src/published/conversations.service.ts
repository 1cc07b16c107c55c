import {
  isUuid,
  type TAnswerSource,
  type TConversation,
  type TConversationSummary,
} from '@agentloom/contracts';
import type { ConversationMessage } from '@agentloom/db';
import { Injectable, NotFoundException } from '@nestjs/common';
import { PipelinesService } from '../pipelines/pipelines.service';
import { ConversationsRepository, type ConversationWithMessages } from './conversations.repository';

export const CONVERSATION_MISSING = 'Conversation not found.';
/** The newest conversations listed and exported at once. */
const LIST_LIMIT = 500;

/** The owner's view of the conversations visitors and programs had with a published agent. */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly conversations: ConversationsRepository,
  ) {}

  async list(userId: string, pipelineId: string): Promise<TConversationSummary[]> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const found = await this.conversations.listOwned(pipeline.id, userId, LIST_LIMIT);
    return found.map(summaryOf);
  }

  async get(userId: string, pipelineId: string, id: string): Promise<TConversation> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const found = isUuid(id) ? await this.conversations.findOwned(id, pipeline.id, userId) : null;
    if (!found) throw new NotFoundException(CONVERSATION_MISSING);
    return { ...summaryOf(found), turns: found.messages.map(messageOf) };
  }

  async remove(userId: string, pipelineId: string, id: string): Promise<void> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    if (!isUuid(id) || !(await this.conversations.removeOwned(id, pipeline.id, userId))) {
      throw new NotFoundException(CONVERSATION_MISSING);
    }
  }

  /** Every listed conversation with its turns (JSON), or one row per message (CSV). */
  async export(userId: string, pipelineId: string, format: 'json' | 'csv'): Promise<string> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const found = await this.conversations.listOwned(pipeline.id, userId, LIST_LIMIT);
    if (format === 'json') {
      const full = found.map((c) => ({ ...summaryOf(c), turns: c.messages.map(messageOf) }));
      return JSON.stringify(full, null, 2);
    }
    const header = [
      'conversation_id',
      'channel',
      'message_id',
      'role',
      'content',
      'sources',
      'feedback',
      'created_at',
    ];
    const rows = found.flatMap((c) =>
      c.messages.map((m) => {
        const view = messageOf(m);
        return [
          c.id,
          c.channel,
          m.id,
          m.role,
          m.content,
          sourcesText(view.sources),
          view.feedback ?? '',
          view.created_at,
        ];
      }),
    );
    return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
  }
}

function summaryOf(conversation: ConversationWithMessages): TConversationSummary {
  const { messages } = conversation;
  const firstQuestion = messages.find((m) => m.role === 'user')?.content ?? '';
  return {
    id: conversation.id,
    channel: conversation.channel,
    messages: messages.length,
    thumbs_up: messages.filter((m) => m.feedback === 1).length,
    thumbs_down: messages.filter((m) => m.feedback === -1).length,
    title: firstQuestion.length > 80 ? `${firstQuestion.slice(0, 79)}…` : firstQuestion,
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
  };
}

function messageOf(message: ConversationMessage) {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    sources: (Array.isArray(message.sources) ? message.sources : []) as TAnswerSource[],
    feedback:
      message.feedback === 1 ? ('up' as const) : message.feedback === -1 ? ('down' as const) : null,
    created_at: message.createdAt.toISOString(),
  };
}

function sourcesText(sources: TAnswerSource[]): string {
  return sources.map((source) => source.citation ?? source.sql ?? '').join('; ');
}

/**
 * A CSV cell, quoted when needed. Cells that a spreadsheet would run as a formula (=, +, -, @)
 * get a leading apostrophe: visitors write these texts, and the owner opens the file.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
