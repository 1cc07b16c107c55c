import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The providers' list-models calls and key rejections, as the real APIs answer them, for the
 * LLM test server (llm-test-server.ts):
 *
 * - OpenAI, Groq, DeepSeek: `GET /v1/models` with `Authorization: Bearer <key>` →
 *   `{object: "list", data: [{id, object: "model", created, owned_by}]}`; a refused key → 401
 *   `{error: {message, type: "invalid_request_error", code: "invalid_api_key"}}`.
 * - Anthropic: `GET /anthropic/v1/models` with `x-api-key` and `anthropic-version` →
 *   `{data: [{type: "model", id, display_name, created_at}], has_more, first_id, last_id}`; a
 *   refused key → 401 `{type: "error", error: {type: "authentication_error", …}}`.
 * - Gemini: `GET /v1beta/models` with `x-goog-api-key` (or `?key=`) →
 *   `{models: [{name: "models/<id>", supportedGenerationMethods, inputTokenLimit, …}]}`; a refused
 *   key → 400 with status INVALID_ARGUMENT and the reason API_KEY_INVALID, as Google answers.
 */
export type ModelLists = Record<'openai' | 'anthropic' | 'gemini', string[]>;

/** What the stand-in serves unless a test sets its own lists: current ids and a few non-chat. */
export const DEFAULT_MODEL_LISTS: ModelLists = {
  openai: [
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'o4-mini',
    'text-embedding-ada-002',
    'whisper-1',
  ],
  anthropic: ['claude-opus-4-20250514', 'claude-sonnet-4-20250514', 'claude-3-5-haiku-20241022'],
  gemini: [
    'gemini-2.0-flash',
    'gemini-2.0-flash-001',
    'gemini-2.0-flash-lite',
    'gemini-2.5-flash',
    'gemini-2.5-pro',
    'text-embedding-004',
  ],
};

type Protocol = keyof ModelLists;

/** The key a request carries, wherever its protocol puts it. */
export function keyOf(request: IncomingMessage): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const header = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'];
  const query = new URL(request.url ?? '/', 'http://x').searchParams.get('key');
  return bearer ?? (typeof header === 'string' ? header : undefined) ?? query ?? undefined;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Answers a refused key as the provider of `protocol` does. */
export function rejectKey(response: ServerResponse, protocol: Protocol): void {
  if (protocol === 'anthropic') {
    return send(response, 401, {
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
  }
  if (protocol === 'gemini') {
    return send(response, 400, {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
          },
        ],
      },
    });
  }
  send(response, 401, {
    error: {
      message: 'Incorrect API key provided. You can find your API key in your account settings.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  });
}

/** Serves `GET …/models` when `pathname` is one; answers whether it did. */
export function listModels(
  protocol: Protocol,
  pathname: string,
  lists: ModelLists,
  response: ServerResponse,
): boolean {
  const created = 1_700_000_000;
  if (protocol === 'openai' && pathname === '/v1/models') {
    const data = lists.openai.map((id) => ({ id, object: 'model', created, owned_by: 'system' }));
    send(response, 200, { object: 'list', data });
    return true;
  }
  if (protocol === 'anthropic' && pathname === '/anthropic/v1/models') {
    const data = lists.anthropic.map((id) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: new Date(created * 1000).toISOString(),
    }));
    send(response, 200, {
      data,
      has_more: false,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
    });
    return true;
  }
  if (protocol === 'gemini' && pathname === '/v1beta/models') {
    const models = lists.gemini.map((id) => ({
      name: `models/${id}`,
      displayName: id,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 8_192,
      supportedGenerationMethods: id.includes('embedding')
        ? ['embedContent']
        : ['generateContent', 'countTokens'],
    }));
    send(response, 200, { models });
    return true;
  }
  return false;
}
