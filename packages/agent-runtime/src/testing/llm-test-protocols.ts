import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  pieces,
  replyTo,
  testEmbedding,
  textOf,
  tokenCount,
  type ChatMessage,
  type Prompt,
} from './llm-test-replies';
import { sendEvents, sendJson } from './llm-test-responses';
import { solidPng } from './png';

/** Each provider's wire format for the LLM test server: the request bodies it reads, the answers. */

/**
 * The parts of the request bodies the server reads. Bodies are trusted to be what the AI SDK
 * sends; anything else simply gets a default answer.
 */
export interface OpenAiBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  input?: string | string[];
  encoding_format?: 'float' | 'base64';
}

export interface AnthropicBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: ChatMessage[];
}

export interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
}

export interface GeminiBody {
  contents?: { role?: string; parts?: GeminiPart[] }[];
  systemInstruction?: { parts?: GeminiPart[] };
  generationConfig?: { responseModalities?: string[] };
}

// --- OpenAI-compatible (OpenAI, Groq, DeepSeek) ------------------------------------------------

export function openAiChat(body: OpenAiBody, reply: string, response: ServerResponse): void {
  const model = body.model ?? 'test-model';
  // As OpenAI and Groq answer today: clients such as LiteLLM's Groq handler read service_tier.
  const base = {
    id: 'chatcmpl-test',
    created: Math.floor(Date.now() / 1000),
    model,
    service_tier: 'default',
    system_fingerprint: 'fp_test',
  };
  const usage = {
    prompt_tokens: tokenCount(JSON.stringify(body.messages ?? '')),
    completion_tokens: tokenCount(reply),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  if (!body.stream) {
    return sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' },
      ],
      usage,
    });
  }
  const chunk = (choices: unknown[], extra: object = {}) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    ...pieces(reply).map((piece) =>
      chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]),
    ),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    // OpenAI and DeepSeek read `usage`; Groq reads it from its own `x_groq` field.
    chunk([], { usage, x_groq: { usage } }),
    'data: [DONE]\n\n',
  ];
  sendEvents(response, events);
}

/** OpenAI's sizes, so a vector store created for the model takes the stand-in's vectors. */
const EMBEDDING_SIZES: Record<string, number> = {
  'text-embedding-ada-002': 1536,
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
};

export function embeddings(body: OpenAiBody, response: ServerResponse): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
  const tokens = inputs.reduce((sum, input) => sum + tokenCount(input), 0);
  sendJson(response, 200, {
    object: 'list',
    data: inputs.map((input, index) => {
      const vector = testEmbedding(input, EMBEDDING_SIZES[body.model ?? ''] ?? 256);
      // As OpenAI answers: JSON numbers by default, little-endian float32s in base64 when asked
      // (what its own SDKs ask for, and Agentloom's embedders).
      const embedding =
        body.encoding_format === 'base64'
          ? Buffer.from(Float32Array.from(vector).buffer).toString('base64')
          : vector;
      return { object: 'embedding', index, embedding };
    }),
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

// --- Anthropic Messages ------------------------------------------------------------------------

export function anthropicMessages(
  body: AnthropicBody,
  reply: string,
  response: ServerResponse,
): void {
  const model = body.model ?? 'claude-test';
  const inputTokens = tokenCount(JSON.stringify(body.messages ?? ''));
  const outputTokens = tokenCount(reply);
  if (!body.stream) {
    return sendJson(response, 200, {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: reply }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    });
  }
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  sendEvents(response, [
    event('message_start', {
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: inputTokens, output_tokens: 0 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces(reply).map((piece) =>
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
    ),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    event('message_stop', {}),
  ]);
}

// --- Gemini ------------------------------------------------------------------------------------

/** Gemini's usage block: the prompt's tokens and the reply's. */
function geminiUsage(contents: NonNullable<GeminiBody['contents']>, reply: string) {
  const promptTokenCount = tokenCount(JSON.stringify(contents));
  const candidatesTokenCount = tokenCount(reply);
  return {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
  };
}

export function geminiGenerate(
  body: GeminiBody,
  model: string,
  stream: boolean,
  response: ServerResponse,
  sqlReplies: string[],
): void {
  const contents = body.contents ?? [];
  const userParts = contents.filter((content) => content.role !== 'model').at(-1)?.parts ?? [];
  const prompt: Prompt = {
    system: textOf(body.systemInstruction?.parts),
    user: textOf(userParts),
  };
  const modalities = body.generationConfig?.responseModalities ?? [];

  // Like Gemini, only image models draw; others answer in text whatever was asked.
  if (modalities.includes('IMAGE') && model.includes('image')) {
    const answer = geminiImage(contents, userParts, prompt.user, model);
    if (stream) return sendEvents(response, [`data: ${JSON.stringify(answer)}\n\n`]);
    return sendJson(response, 200, answer);
  }
  geminiText(contents, replyTo(prompt, sqlReplies), model, stream, response);
}

/**
 * An image model's answer: a line of text and a small PNG whose colour depends on the prompt and
 * the uploaded images, so an edit is told apart from a fresh drawing.
 */
function geminiImage(
  contents: NonNullable<GeminiBody['contents']>,
  userParts: GeminiPart[],
  user: string,
  model: string,
) {
  const uploaded = userParts.flatMap((part) =>
    part.inlineData ? [Buffer.from(part.inlineData.data, 'base64')] : [],
  );
  const hash = createHash('sha256').update(user);
  for (const image of uploaded) hash.update(image);
  const [r = 0, g = 0, b = 0] = hash.digest();
  const text =
    `Here is an image for "${user}".` +
    uploaded.map((image) => ` I edited the uploaded image of ${image.length} bytes.`).join('');
  const parts = [
    { text },
    {
      inlineData: { mimeType: 'image/png', data: solidPng(64, 64, [r, g, b]).toString('base64') },
    },
  ];
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: geminiUsage(contents, text),
    modelVersion: model,
  };
}

/** A text answer, whole or streamed in pieces (the last one carries the finish and the usage). */
function geminiText(
  contents: NonNullable<GeminiBody['contents']>,
  reply: string,
  model: string,
  stream: boolean,
  response: ServerResponse,
): void {
  if (!stream) {
    return sendJson(response, 200, {
      candidates: [
        { content: { role: 'model', parts: [{ text: reply }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: geminiUsage(contents, reply),
      modelVersion: model,
    });
  }
  const chunks = pieces(reply);
  sendEvents(
    response,
    chunks.map((piece, index) => {
      const last = index === chunks.length - 1;
      const data = {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: piece }] },
            index: 0,
            ...(last ? { finishReason: 'STOP' } : {}),
          },
        ],
        ...(last ? { usageMetadata: geminiUsage(contents, reply) } : {}),
        modelVersion: model,
      };
      return `data: ${JSON.stringify(data)}\n\n`;
    }),
  );
}
