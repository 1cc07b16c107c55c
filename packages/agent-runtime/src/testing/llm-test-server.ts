import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProviderBaseUrls } from '../providers';
import { SQL_ANSWER_RESULT, SQL_WRITING_INSTRUCTION } from '../sql-agent';
import {
  DEFAULT_MODEL_LISTS,
  keyOf,
  listModels,
  rejectKey,
  type ModelLists,
} from './llm-test-models';
import { solidPng } from './png';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse". */
  path: string;
  /** As received: the key is in Authorization, x-api-key or x-goog-api-key. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body. */
  body: unknown;
  /** Time the server spent on the request, in milliseconds (set once it has answered). */
  ms: number;
  /** The client closed the connection before the answer was complete (a cancelled call). */
  cancelled: boolean;
}

/** How the next streamed answer breaks: goes silent with the connection open, or drops it. */
export interface StreamFault {
  kind: 'stall' | 'cut';
  /** Events sent before it breaks. */
  afterEvents: number;
}

export interface LlmTestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** What to pass as `baseUrls` so every provider's AI SDK client talks to this server. */
  baseUrls: ProviderBaseUrls;
  requests: RecordedRequest[];
  /**
   * Replies to the next SQL-writing requests, in order. When empty, the SQL is derived from the
   * request: "how many …" → SELECT COUNT(*) FROM <first table>, else SELECT * FROM <first table>.
   */
  sqlReplies: string[];
  /** What each protocol's list-models call answers (llm-test-models.ts); tests may replace them. */
  modelLists: ModelLists;
  /**
   * Keys the "provider" refuses, on every call, as the real API refuses a revoked key. A browser
   * test adds one from outside with `POST /_test/rejected-keys {"key": "…"}`.
   */
  rejectedKeys: Set<string>;
  /** The next request (any protocol) fails with this HTTP status and message. */
  failNext(status: number, message: string): void;
  /** The next streamed answer (any protocol) breaks this way; other requests are unaffected. */
  breakNextStream(fault: StreamFault): void;
  close(): Promise<void>;
}

/**
 * A local server that speaks the providers' real wire protocols, so the real AI SDK clients run
 * against it:
 *
 * - OpenAI Chat Completions, `POST /v1/chat/completions`, streaming (SSE `data:` chunks with
 *   usage, ending `data: [DONE]`) or not — also what Groq and DeepSeek speak;
 * - OpenAI embeddings, `POST /v1/embeddings`: hashed bag-of-words vectors (256 dimensions, unit
 *   length), so texts sharing words are similar and retrieval really works through it;
 * - Anthropic Messages, `POST /anthropic/v1/messages`, streaming (named SSE events) or not;
 * - Gemini, `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`,
 *   including image output from models named "…image…" (`responseModalities` with IMAGE): a real
 *   64×64 PNG of one colour, hashed from the prompt and any uploaded image, whose size the text
 *   part reports ("I edited the uploaded image of N bytes.").
 *
 * Answers are computed from the prompt, recognised by the formats the agents write:
 *
 * - RAG (rag-agent.ts): the user message starts "Context:\n[1] (<citation>) <text>" and ends
 *   "\n\nQuestion: <q>" → "According to [1]: <text of passage 1>".
 * - SQL writing (sql-agent.ts): the system prompt contains SQL_WRITING_INSTRUCTION and lists the
 *   tables as "- <name> (<column> <TYPE>, …)" lines → the next `sqlReplies` entry, or the default.
 * - Answer after SQL (sql-agent.ts): the user message has "Question: <q>", "SQL:\n<sql>" and
 *   SQL_ANSWER_RESULT ("Result (<n> rows…):") followed by a header line and " | "-separated rows
 *   → "The answer is <first cell of the first row>."
 * - Anything else → "You said: <the last user text>".
 *
 * - The list-models calls of each protocol, and refused keys answered as each provider does
 *   (llm-test-models.ts).
 *
 * Text answers stream in several chunks of a few words each. It listens on 127.0.0.1, on `port`
 * when given (a browser test's fixed address), else on a free one.
 */
export async function startLlmTestServer(
  o: { port?: number; rejectedKeys?: string[] } = {},
): Promise<LlmTestServer> {
  const requests: RecordedRequest[] = [];
  const modelLists: ModelLists = structuredClone(DEFAULT_MODEL_LISTS);
  const rejectedKeys = new Set(o.rejectedKeys ?? []);
  const sqlReplies: string[] = [];
  const failures: { status: number; message: string }[] = [];
  const streamFaults: StreamFault[] = [];

  const server = createServer((request, response) => {
    const started = performance.now();
    const record: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: undefined,
      ms: 0,
      cancelled: false,
    };
    requests.push(record);
    response.on('finish', () => (record.ms = performance.now() - started));
    response.on('close', () => (record.cancelled = !response.writableFinished));
    readJson(request)
      .then((body) => {
        record.body = body;
        if (record.path === '/_test/rejected-keys' && record.method === 'POST') {
          rejectedKeys.add(String((body as { key?: unknown } | undefined)?.key));
          return sendJson(response, 200, { rejected: rejectedKeys.size });
        }
        const failure = failures.shift();
        const protocol = protocolOf(request);
        if (failure) return sendError(response, protocol, failure.status, failure.message);
        const key = keyOf(request);
        if (key !== undefined && rejectedKeys.has(key)) return rejectKey(response, protocol);
        if (listModels(protocol, record.path.split('?')[0]!, modelLists, response)) return;
        if (isStreamed(record.path, body)) {
          const fault = streamFaults.shift();
          if (fault) breakStream(response, fault);
        }
        return route(protocol, record.path, body, response, sqlReplies);
      })
      .catch((error: Error) => sendError(response, 'openai', 400, error.message));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject); // e.g. the fixed port is taken
    server.listen(o.port || 0, '127.0.0.1', resolve); // no port (or NaN from an unset env): a free one
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    baseUrls: {
      openai: `${url}/v1`,
      groq: `${url}/v1`,
      deepseek: `${url}/v1`,
      claude: `${url}/anthropic/v1`,
      gemini: `${url}/v1beta`,
    },
    requests,
    sqlReplies,
    modelLists,
    rejectedKeys,
    failNext: (status, message) => void failures.push({ status, message }),
    breakNextStream: (fault) => void streamFaults.push(fault),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

type Protocol = 'openai' | 'anthropic' | 'gemini';

/**
 * The parts of the request bodies the server reads. Bodies are trusted to be what the AI SDK
 * sends; anything else simply gets a default answer.
 */
interface ChatMessage {
  role: string;
  content: unknown;
}

interface OpenAiBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  input?: string | string[];
}

interface AnthropicBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: ChatMessage[];
}

interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
}

interface GeminiBody {
  contents?: { role?: string; parts?: GeminiPart[] }[];
  systemInstruction?: { parts?: GeminiPart[] };
  generationConfig?: { responseModalities?: string[] };
}

function protocolOf(request: IncomingMessage): Protocol {
  const path = request.url ?? '';
  if (path.startsWith('/anthropic/')) return 'anthropic';
  if (path.startsWith('/v1beta/')) return 'gemini';
  return 'openai';
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function route(
  protocol: Protocol,
  path: string,
  body: unknown,
  response: ServerResponse,
  sqlReplies: string[],
): void {
  const [pathname = ''] = path.split('?');
  if (protocol === 'openai' && pathname === '/v1/embeddings') {
    return embeddings(body as OpenAiBody, response);
  }
  if (protocol === 'openai' && pathname === '/v1/chat/completions') {
    const chat = body as OpenAiBody;
    return openAiChat(
      chat,
      replyTo(chatPrompt(chat.messages, chat.messages), sqlReplies),
      response,
    );
  }
  if (protocol === 'anthropic' && pathname === '/anthropic/v1/messages') {
    const messages = body as AnthropicBody;
    const prompt = chatPrompt(messages.messages, [{ role: 'system', content: messages.system }]);
    return anthropicMessages(messages, replyTo(prompt, sqlReplies), response);
  }
  const gemini = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(
    pathname,
  );
  if (protocol === 'gemini' && gemini) {
    return geminiGenerate(
      body as GeminiBody,
      gemini[1]!,
      gemini[2] === 'streamGenerateContent',
      response,
      sqlReplies,
    );
  }
  sendError(response, protocol, 404, `No route for ${path} on the LLM test server.`);
}

// --- Prompts and answers -----------------------------------------------------------------------

interface Prompt {
  system: string;
  user: string;
}

function replyTo({ system, user }: Prompt, sqlReplies: string[]): string {
  const generated = replyToGeneratedAgent(system, user);
  if (generated !== undefined) return generated;
  if (user.startsWith('Context:\n')) {
    const first = /^\[1\] \((.*?)\) ([\s\S]*?)(?=\n\[2\] \(|\n\nQuestion: )/m.exec(user);
    return first ? `According to [1]: ${first[2]}` : 'I do not know: no passage answers that.';
  }
  if (system.includes(SQL_WRITING_INSTRUCTION)) {
    const next = sqlReplies.shift();
    if (next !== undefined) return next;
    const table = /^- (\S+) \(/m.exec(system)?.[1] ?? 'data';
    return /how many/i.test(user) ? `SELECT COUNT(*) FROM ${table}` : `SELECT * FROM ${table}`;
  }
  const result = user.indexOf(`\n\n${SQL_ANSWER_RESULT}`);
  if (result !== -1) {
    const [, , firstRow] = user.slice(result + 2).split('\n'); // the heading, the columns, row 1
    const cell = firstRow?.split(' | ')[0];
    return cell === undefined || cell === ''
      ? 'The query returned no rows.'
      : `The answer is ${cell}.`;
  }
  return `You said: ${user}`;
}

/**
 * The prompts of the generated Python agents (apps/builder-worker/templates), so the live check
 * of downloaded projects runs them end to end through this server:
 * - RAG: "Passages:\n[1] (<citation>)\n<text>…\n\nQuestion: <q>" → "According to [1]: <text>";
 * - SQL (sql_prompts.py): "Reply with the SQL in a ```sql code block" under a "CREATE TABLE <name>"
 *   → a count of that table in a ```sql block; Vanna's "Write one read-only SELECT statement"
 *   system prompt with the table's DDL → the same count, bare;
 * - the answer after the query ran: "Its result (…):" then a header and " | "-separated rows →
 *   "The answer is <first cell of the first row>."
 * - PandasAI 2.x's code prompt ("Variable `dfs: list[pd.DataFrame]` is already declared.") →
 *   Python that counts the first frame's rows, or, when the question asks for a "bar chart",
 *   draws its first numeric column with matplotlib and saves it as a PNG.
 */
const PANDASAI_COUNT_CODE = [
  '```python',
  'import pandas as pd',
  '',
  'result = {"type": "number", "value": len(dfs[0])}',
  '```',
].join('\n');

const PANDASAI_CHART_CODE = [
  '```python',
  'import pandas as pd',
  'import matplotlib.pyplot as plt',
  '',
  'dfs[0].select_dtypes("number").iloc[:, 0].plot(kind="bar")',
  'plt.savefig("temp_chart.png")',
  'result = {"type": "plot", "value": "temp_chart.png"}',
  '```',
].join('\n');

function replyToGeneratedAgent(system: string, user: string): string | undefined {
  const passage = /\n\nPassages:\n\[1\] \((.*?)\)\n([\s\S]*?)(?=\n\n\[2\] \(|\n\nQuestion: )/.exec(
    user,
  );
  if (passage) return `According to [1]: ${passage[2]}`;
  const table = (text: string) => /^CREATE TABLE (.+) \($/m.exec(text)?.[1];
  if (user.includes('Reply with the SQL in a ```sql code block')) {
    return `\`\`\`sql\nSELECT COUNT(*) AS n FROM ${table(user) ?? 'data'}\n\`\`\``;
  }
  if (system.includes('Write one read-only SELECT statement')) {
    return `SELECT COUNT(*) AS n FROM ${table(`${system}\n${user}`) ?? 'data'}`;
  }
  if (user.includes('Variable `dfs: list[pd.DataFrame]` is already declared.')) {
    return /\bbar chart\b/i.test(user) ? PANDASAI_CHART_CODE : PANDASAI_COUNT_CODE;
  }
  const result = /\nIts result \([^\n]*\):\n[^\n]*\n([^\n]*)/.exec(user);
  if (result) return `The answer is ${result[1]!.split(' | ')[0]}.`;
  return undefined;
}

/** A few words per chunk, so a client really receives the answer in pieces. */
function pieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(''));
  return chunks;
}

function tokenCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

// --- OpenAI-compatible (OpenAI, Groq, DeepSeek) ------------------------------------------------

/**
 * The system text (OpenAI: system/developer messages; Anthropic: the `system` field) and the
 * last user message's text.
 */
function chatPrompt(messages: ChatMessage[] = [], systemSources: ChatMessage[] = []): Prompt {
  const system = systemSources
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => textOf(message.content))
    .join('\n');
  const user = textOf(messages.filter((message) => message.role === 'user').at(-1)?.content);
  return { system, user };
}

function openAiChat(body: OpenAiBody, reply: string, response: ServerResponse): void {
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

/**
 * Hashed bag of words: each word adds 1 to one of the first 256 dimensions; vectors have unit
 * length and `dimensions` entries (the rest zeros).
 */
export function testEmbedding(text: string, dimensions = 256): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    vector[createHash('sha256').update(word).digest().readUInt32BE(0) % 256]! += 1;
  }
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}

/** OpenAI's sizes, so a vector store created for the model takes the stand-in's vectors. */
const EMBEDDING_SIZES: Record<string, number> = { 'text-embedding-ada-002': 1536 };

function embeddings(body: OpenAiBody, response: ServerResponse): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
  const tokens = inputs.reduce((sum, input) => sum + tokenCount(input), 0);
  sendJson(response, 200, {
    object: 'list',
    data: inputs.map((input, index) => ({
      object: 'embedding',
      index,
      embedding: testEmbedding(input, EMBEDDING_SIZES[body.model ?? ''] ?? 256),
    })),
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

// --- Anthropic Messages ------------------------------------------------------------------------

function anthropicMessages(body: AnthropicBody, reply: string, response: ServerResponse): void {
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

function geminiGenerate(
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
  const usageMetadata = (reply: string) => {
    const promptTokenCount = tokenCount(JSON.stringify(contents));
    const candidatesTokenCount = tokenCount(reply);
    return {
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    };
  };

  // Like Gemini, only image models draw; others answer in text whatever was asked.
  if (modalities.includes('IMAGE') && model.includes('image')) {
    const uploaded = userParts.flatMap((part) =>
      part.inlineData ? [Buffer.from(part.inlineData.data, 'base64')] : [],
    );
    const hash = createHash('sha256').update(prompt.user);
    for (const image of uploaded) hash.update(image);
    const [r = 0, g = 0, b = 0] = hash.digest();
    const text =
      `Here is an image for "${prompt.user}".` +
      uploaded.map((image) => ` I edited the uploaded image of ${image.length} bytes.`).join('');
    const parts = [
      { text },
      {
        inlineData: { mimeType: 'image/png', data: solidPng(64, 64, [r, g, b]).toString('base64') },
      },
    ];
    const answer = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usageMetadata(text),
      modelVersion: model,
    };
    if (stream) return sendEvents(response, [`data: ${JSON.stringify(answer)}\n\n`]);
    return sendJson(response, 200, answer);
  }

  const reply = replyTo(prompt, sqlReplies);
  if (!stream) {
    return sendJson(response, 200, {
      candidates: [
        { content: { role: 'model', parts: [{ text: reply }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: usageMetadata(reply),
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
        ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
        modelVersion: model,
      };
      return `data: ${JSON.stringify(data)}\n\n`;
    }),
  );
}

// --- Responses -----------------------------------------------------------------------------------

function isStreamed(path: string, body: unknown): boolean {
  return path.includes(':streamGenerateContent') || (body as { stream?: unknown })?.stream === true;
}

/** Lets `afterEvents` writes through, then swallows the rest (stall) or drops the socket (cut). */
function breakStream(response: ServerResponse, fault: StreamFault): void {
  let written = 0;
  const write = response.write.bind(response) as (chunk: string) => boolean;
  const broken = () => {
    if (fault.kind === 'cut') response.socket?.destroy();
  };
  response.write = ((chunk: string) => {
    if (written >= fault.afterEvents) {
      broken();
      return true;
    }
    written += 1;
    return write(chunk);
  }) as typeof response.write;
  const end = response.end.bind(response);
  response.end = ((...args: Parameters<typeof response.end>) => {
    if (written < fault.afterEvents) return end(...args);
    broken();
    return response;
  }) as typeof response.end;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sendEvents(response: ServerResponse, events: string[]): void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  for (const event of events) response.write(event);
  response.end();
}

/** Each protocol's own error body, so the AI SDK reads the message as it would from the provider. */
function sendError(response: ServerResponse, protocol: Protocol, status: number, message: string) {
  switch (protocol) {
    case 'openai':
      return sendJson(response, status, {
        error: { message, type: 'invalid_request_error', param: null, code: null },
      });
    case 'anthropic':
      return sendJson(response, status, {
        type: 'error',
        error: { type: status === 401 ? 'authentication_error' : 'api_error', message },
      });
    case 'gemini':
      return sendJson(response, status, {
        error: {
          code: status,
          message,
          status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
        },
      });
  }
}
