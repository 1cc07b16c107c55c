import { z } from 'zod';
import { ZAnswerSource } from './published';
import { zText } from './text';

/**
 * The other doors to a published agent, beside its own API: OpenAI's model listing (chat
 * front-ends list models before they chat) and the agent's MCP server.
 */

/** GET /v1/models/{id}: OpenAI's model object; the id is the agent's id. */
export const ZOpenAiModel = z.object({
  id: z.uuid(),
  object: z.literal('model'),
  /** When the agent was published (Unix seconds). */
  created: z.number().int(),
  owned_by: zText(),
  /** The agent's name (not in OpenAI's object; chat front-ends show it when present). */
  name: zText(),
});
export type TOpenAiModel = z.infer<typeof ZOpenAiModel>;

/** GET /v1/models: the published agents the access key may call. */
export const ZOpenAiModelList = z.object({
  object: z.literal('list'),
  data: z.array(ZOpenAiModel),
});
export type TOpenAiModelList = z.infer<typeof ZOpenAiModelList>;

/** The MCP server's one tool: what it takes. */
export const MCP_ASK_INPUT = {
  question: zText().trim().min(1, { error: 'Ask a question first.' }),
  conversation_id: z
    .uuid({ error: 'conversation_id must be an id this agent gave.' })
    .optional()
    .describe('Continue an earlier conversation: the conversation_id of its last answer.'),
};

/** The tool's structured answer (also sent as text for clients that read only text). */
export const MCP_ASK_OUTPUT = {
  answer: zText(),
  sources: z.array(ZAnswerSource),
  conversation_id: z.uuid(),
};
export const ZMcpAskResult = z.object(MCP_ASK_OUTPUT);
export type TMcpAskResult = z.infer<typeof ZMcpAskResult>;
