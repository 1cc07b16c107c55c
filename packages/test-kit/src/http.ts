/**
 * The gateway's public HTTP API called the way the web app calls it (JSON for accounts and
 * agents, form-encoded wizard steps, multipart uploads), with plain fetch, so one driver serves
 * an in-process test app, a built gateway process and the browser tests' server alike.
 */

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface ApiRequest {
  /** GET without a body, POST with one, unless named (PUT, PATCH, DELETE). */
  method?: string;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent form-encoded. */
  form?: Record<string, string>;
  /** Sent as multipart/form-data. */
  body?: FormData;
}

/** One call to the gateway at `base`: POST when there is a body, GET otherwise. */
export async function apiCall(
  base: string,
  route: string,
  init: ApiRequest = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | FormData | undefined = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(`${base}${route}`, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed };
}

/** The answer when its status is `status`; otherwise an error naming the call and the body. */
export function expectStatus(answer: ApiAnswer, status: number, what: string): ApiAnswer {
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return answer;
}

/**
 * Where calls go: one gateway's base URL, or several replicas of one deployment taken in turn,
 * call by call, so consecutive steps of one flow land on different gateways.
 */
export type Gateway = string | readonly string[];

/** The next base URL of `gateway` each time it is called. */
export function rotation(gateway: Gateway): () => string {
  const hosts = typeof gateway === 'string' ? [gateway] : gateway;
  if (hosts.length === 0) throw new Error('No gateway to call.');
  let turn = 0;
  return () => hosts[turn++ % hosts.length]!;
}
