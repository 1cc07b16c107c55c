import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProviderBaseUrls } from '../providers';
import {
  DEFAULT_MODEL_LISTS,
  keyOf,
  listModels,
  rejectKey,
  type ModelLists,
} from './llm-test-models';
import {
  anthropicMessages,
  embeddings,
  geminiGenerate,
  openAiChat,
  type AnthropicBody,
  type GeminiBody,
  type OpenAiBody,
} from './llm-test-protocols';
import { chatPrompt, replyTo } from './llm-test-replies';
import {
  breakStream,
  isStreamed,
  sendError,
  sendJson,
  type Protocol,
  type StreamFault,
} from './llm-test-responses';

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

export type { StreamFault };

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
 * - OpenAI embeddings, `POST /v1/embeddings`: hashed bag-of-words vectors (the model's size, unit
 *   length), so texts sharing words are similar and retrieval really works through it; as JSON
 *   numbers, or base64 float32s when `encoding_format` asks (as OpenAI answers);
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
 * when given (a browser test's fixed address), else on a free one; on `host` instead when
 * containers must reach it (the compose check: 0.0.0.0). `url` names loopback either way.
 */
export async function startLlmTestServer(
  o: { port?: number; rejectedKeys?: string[]; host?: string } = {},
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
    server.listen(o.port || 0, o.host ?? '127.0.0.1', resolve); // no port (or NaN from an unset env): a free one
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
