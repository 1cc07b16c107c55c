import { z } from 'zod';
import { PREVIEW_QUESTION_MAX_LENGTH } from './previews';
import { zText } from './text';

/** Access keys of published agents start with this, so a leaked one is recognisable. */
export const ACCESS_KEY_PREFIX = 'al_';

/** A site that tried to embed the widget without being allowed, and when it last did. */
export const ZRefusedOrigin = z.object({ origin: z.string(), last_seen: z.iso.datetime() });
export type TRefusedOrigin = z.infer<typeof ZRefusedOrigin>;

/** GET/PUT/PATCH /agents/{id}/publication: whether and how the agent is served. */
export const ZPublication = z.object({
  published: z.boolean(),
  /** The build the platform serves; null when not published. */
  build_id: z.uuid().nullable(),
  /** The newest Built build: when it differs from build_id, publishing again serves it. */
  latest_build_id: z.uuid().nullable(),
  /** The numbers of those two builds in the agent's history (1 for its first build). */
  build_number: z.number().int().nullable(),
  latest_build_number: z.number().int().nullable(),
  published_at: z.iso.datetime().nullable(),
  /**
   * A build that changes only the agent's knowledge (a source added, replaced, removed or
   * refreshed) is served as soon as it is Built; a prompt or model change waits for Publish.
   */
  follow_knowledge: z.boolean(),
  share_enabled: z.boolean(),
  allowed_origins: z.array(zText()),
  /** Where to call the agent and to share or embed it (built from PUBLIC_URL). */
  api_url: z.url(),
  share_url: z.url(),
  widget_script_url: z.url(),
  /** The agent's MCP server (streamable HTTP), authenticated with the same access keys. */
  mcp_url: z.url(),
  /** Visitors of the share page and the widget see each answer's sources. */
  show_sources: z.boolean(),
  /** The agent answers from a table: its sources are raw rows (names, amounts…). */
  source_is_table: z.boolean(),
  /** Sites whose pages tried to show the widget and were refused, newest first. */
  refused_origins: z.array(ZRefusedOrigin),
});
export type TPublication = z.infer<typeof ZPublication>;

/**
 * A site as people write it, turned into the origins browsers send (scheme, host and port). The
 * scheme is kept as typed: `http://localhost:8080` allows that page and no https one. A plain
 * domain (`www.rosebakery.com`) allows it over https and http — an owner's test page is often
 * plain http, and adding https:// for them blocked it (issue 43, item 7); typing https:// in front
 * allows only that. A page's address (`https://rosebakery.com/contact`) counts as its site.
 */
export function siteOrigins(site: string): string[] {
  const value = site.trim();
  const typedScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  const withScheme = typedScheme ? value : `https://${value}`;
  const match = /^https?:\/\/([a-z0-9.-]+(?::\d{1,5})?)(?:[/?#].*)?$/i.exec(withScheme);
  if (!match) return [value];
  const host = match[1]!.toLowerCase();
  if (typedScheme)
    return [`${withScheme.slice(0, withScheme.indexOf(':')).toLowerCase()}://${host}`];
  return [`https://${host}`, `http://${host}`];
}

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;

const zOrigins = zText()
  .transform(siteOrigins)
  .refine((values) => values.every((value) => ORIGIN.test(value)), {
    error: 'Each site must be a web address such as www.example.com or https://www.example.com.',
  });

/** PATCH /agents/{id}/publication: the share page and the sites that may embed the widget. */
export const ZPublicationSettings = z
  .object({
    share_enabled: z.boolean().optional(),
    follow_knowledge: z.boolean().optional(),
    show_sources: z.boolean().optional(),
    allowed_origins: z
      .array(zOrigins)
      .max(20, { error: 'At most 20 sites may embed an agent.' })
      .transform((sites) => [...new Set(sites.flat())]),
  })
  .partial();
export type TPublicationSettings = z.infer<typeof ZPublicationSettings>;

/**
 * PUT /agents/{id}/publication: serve the newest Built build, or the one named — any Built build
 * of the agent, older ones included (a rollback).
 */
export const ZPublishRequest = z.object({
  build_id: z.uuid({ error: 'build_id must be the id of one of this agent’s builds.' }).optional(),
});
export type TPublishRequest = z.infer<typeof ZPublishRequest>;

export const ZAccessKey = z.object({
  id: z.uuid(),
  name: zText().nullable(),
  /** Masked: `al_…` and the last four characters. */
  key: zText(),
  rate_limit_per_minute: z.number().int(),
  request_count: z.number().int(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
export type TAccessKey = z.infer<typeof ZAccessKey>;

/** POST /agents/{id}/keys answers the key itself, this once. */
export const ZCreatedAccessKey = ZAccessKey.extend({ secret: zText() });
export type TCreatedAccessKey = z.infer<typeof ZCreatedAccessKey>;

export const ZCreateAccessKeyRequest = z.object({
  name: zText()
    .trim()
    .max(100, { error: 'Name must be at most 100 characters.' })
    .transform((value) => (value === '' ? null : value))
    .nullish(),
  rate_limit_per_minute: z
    .number()
    .int()
    .min(1, { error: 'The rate limit must be at least 1 request a minute.' })
    .max(10_000, { error: 'The rate limit can be at most 10000 requests a minute.' })
    .optional(),
});
export type TCreateAccessKeyRequest = z.infer<typeof ZCreateAccessKeyRequest>;

const zMessage = zText()
  .trim()
  .min(1, { error: 'Type a message first.' })
  .max(PREVIEW_QUESTION_MAX_LENGTH, {
    error: `A message can be at most ${PREVIEW_QUESTION_MAX_LENGTH} characters.`,
  });

/** POST /agents/{id}/chat (and the widget's chat): one message, in a conversation or a new one. */
export const ZAgentChatRequest = z.object({
  message: zMessage,
  conversation_id: z.uuid({ error: 'conversation_id must be an id this agent gave.' }).nullish(),
  /** true: server-sent events as the answer is written; false (default): one JSON answer. */
  stream: z.boolean().optional(),
});
export type TAgentChatRequest = z.infer<typeof ZAgentChatRequest>;

/**
 * Where an answer came from: retrieved passages (RAG), the SQL that ran (SQL), or the owner's
 * curated answer (`curated: true`, the curated question as its snippet, the similarity as score).
 */
export const ZAnswerSource = z.object({
  /** A retrieved passage's id in the build's index: what its citation opens (passages.ts). */
  id: zText().optional(),
  /** The build whose index holds that passage (the owner opens it with `?build_id=`). */
  build_id: z.uuid().optional(),
  citation: zText().optional(),
  snippet: zText().optional(),
  score: z.number().optional(),
  sql: zText().optional(),
  curated: z.boolean().optional(),
});
export type TAnswerSource = z.infer<typeof ZAnswerSource>;

/** The non-streaming answer of POST /agents/{id}/chat. */
export const ZAgentChatAnswer = z.object({
  conversation_id: z.uuid(),
  message_id: z.uuid(),
  answer: zText(),
  sources: z.array(ZAnswerSource),
});
export type TAgentChatAnswer = z.infer<typeof ZAgentChatAnswer>;

export const ZMessageFeedback = z.object({
  conversation_id: z.uuid({ error: 'conversation_id is required.' }),
  rating: z.enum(['up', 'down'], { error: 'rating must be up or down.' }),
});
export type TMessageFeedback = z.infer<typeof ZMessageFeedback>;

export const ZConversationMessage = z.object({
  id: z.uuid(),
  role: z.enum(['user', 'assistant']),
  content: zText(),
  sources: z.array(ZAnswerSource),
  feedback: z.enum(['up', 'down']).nullable(),
  created_at: z.iso.datetime(),
});
export type TConversationMessage = z.infer<typeof ZConversationMessage>;

export const ZConversationSummary = z.object({
  id: z.uuid(),
  channel: z.enum(['api', 'widget', 'share']),
  messages: z.number().int(),
  thumbs_up: z.number().int(),
  thumbs_down: z.number().int(),
  /** The first question, as a title. */
  title: zText(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type TConversationSummary = z.infer<typeof ZConversationSummary>;

export const ZConversation = ZConversationSummary.extend({
  turns: z.array(ZConversationMessage),
});
export type TConversation = z.infer<typeof ZConversation>;

/** POST /v1/chat/completions: the part of OpenAI's request a published agent reads. */
export const ZChatCompletionRequest = z.object({
  model: zText({ error: 'model must be the id of a published agent.' }),
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
        content: z.union([
          zText(),
          z.array(z.object({ type: z.string(), text: zText().optional() })),
          z.null(),
        ]),
      }),
    )
    .min(1, { error: 'messages must hold at least one user message.' }),
  stream: z.boolean().nullish(),
});
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

/**
 * Gateway → runtime replica (internal, behind RUNTIME_SHARED_SECRET): one question for the
 * published build of an agent. The gateway has checked the caller; the replica only answers.
 */
export const ZRuntimeAnswerRequest = z.object({
  pipeline_id: z.uuid(),
  build_id: z.uuid(),
  user_id: z.uuid(),
  message: z.string().min(1),
  history: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }))
    .max(100)
    .default([]),
});
export type TRuntimeAnswerRequest = z.infer<typeof ZRuntimeAnswerRequest>;
