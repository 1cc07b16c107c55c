import type { ServerResponse } from 'node:http';

/**
 * How the LLM test server sends what it answers: JSON, server-sent events, each provider's own
 * error body, and a stream broken on purpose.
 */

export type Protocol = 'openai' | 'anthropic' | 'gemini';

/** How the next streamed answer breaks: goes silent with the connection open, or drops it. */
export interface StreamFault {
  kind: 'stall' | 'cut';
  /** Events sent before it breaks. */
  afterEvents: number;
}

export function isStreamed(path: string, body: unknown): boolean {
  return path.includes(':streamGenerateContent') || (body as { stream?: unknown })?.stream === true;
}

/** Lets `afterEvents` writes through, then swallows the rest (stall) or drops the socket (cut). */
export function breakStream(response: ServerResponse, fault: StreamFault): void {
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

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendEvents(response: ServerResponse, events: string[]): void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  for (const event of events) response.write(event);
  response.end();
}

/** Each protocol's own error body, so the AI SDK reads the message as it would from the provider. */
export function sendError(
  response: ServerResponse,
  protocol: Protocol,
  status: number,
  message: string,
) {
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
