import {
  BUILD_EVENTS,
  BUILDS_NAMESPACE,
  type TBuildCompletedEvent,
  type TBuildFailedEvent,
  type TBuildSnapshot,
  type TBuildStageEvent,
  type TBuildSubscribeAck,
} from '@agentloom/contracts';
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';

/**
 * The gateway's public HTTP API and its Socket.IO build feed, called the way the web app calls
 * them (JSON for accounts and pipelines, form-encoded wizard steps, a multipart upload), so a
 * test can drive any replica with plain fetch.
 */

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface ApiRequest {
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
    method: body === undefined ? 'GET' : 'POST',
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

function expectStatus(answer: ApiAnswer, status: number, what: string): ApiAnswer {
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return answer;
}

/** Signs a new, unique user up and in through `base`: the access token and the credentials. */
export async function signUpAndLogIn(
  base: string,
): Promise<{ token: string; email: string; password: string }> {
  const suffix = randomBytes(5).toString('hex');
  const user = {
    username: `scale_${suffix}`,
    email: `scale_${suffix}@example.com`,
    password: `Pw-${suffix}-9x`,
  };
  expectStatus(
    await apiCall(base, '/auth/signup', { json: { ...user, confirm_password: user.password } }),
    201,
    'signup',
  );
  const login = expectStatus(
    await apiCall(base, '/auth/login', { json: { email: user.email, password: user.password } }),
    200,
    'login',
  );
  return { token: login.body.access_token as string, email: user.email, password: user.password };
}

export const TEST_OPENAI_KEY = 'sk-proj-ScaleSpecSecret-0123456789ABCD';

/**
 * A complete RAG agent over `csv` (ChromaDB, OpenAI, Streamlit) through the real wizard calls.
 * `hosts` are the replicas to use, step by step in turn, so consecutive steps of one agent land
 * on different gateways (the upload on one, the next step on another).
 */
export async function createRagAgent(
  hosts: string[],
  token: string,
  name: string,
  csv: string,
): Promise<string> {
  let turn = 0;
  const next = () => hosts[turn++ % hosts.length]!;
  const created = expectStatus(
    await apiCall(next(), '/pipelines', { token, json: { name, agent_type: 'rag' } }),
    201,
    'create pipeline',
  );
  const sessionId = created.body.session_id as string;
  const step = async (route: string, fields: Record<string, string>) =>
    expectStatus(
      await apiCall(next(), `/rag/api/${route}`, {
        token,
        form: { session_id: sessionId, ...fields },
      }),
      200,
      route,
    );
  await step('source', { source_type: 'csv' });
  const upload = new FormData();
  upload.set('session_id', sessionId);
  upload.set('file', new Blob([csv], { type: 'text/csv' }), 'sales.csv');
  expectStatus(
    await apiCall(next(), '/rag/api/source/upload', { token, body: upload }),
    200,
    'upload',
  );
  await step('embeddings/model', { model_name: 'all-MiniLM-L6-v2' });
  await step('vectordb', { vector_db: 'chromadb' });
  await step('vectordb/credentials/local', {
    vector_db: 'chromadb',
    url: 'http://chroma:8000',
    dimensions: '384',
    distance_metric: 'cosine',
  });
  await step('llm/provider', { provider: 'openai' });
  await step('llm/credentials', { api_key: TEST_OPENAI_KEY, model_name: 'gpt-4o-mini' });
  await step('system-prompt', { prompt: 'Answer from the sales data only.' });
  await step('ui', { ui: 'streamlit' });
  return sessionId;
}

/** POST /rag/api/build/agent, as the build screen sends it. */
export function startRagBuild(base: string, token: string, sessionId: string): Promise<ApiAnswer> {
  return apiCall(base, '/rag/api/build/agent', { token, form: { session_id: sessionId } });
}

/** GET a download route; the zip's bytes with the answer's status and headers. */
export async function download(
  base: string,
  token: string,
  route: string,
): Promise<{
  status: number;
  contentType: string | null;
  disposition: string | null;
  zip: Buffer;
}> {
  const response = await fetch(`${base}${route}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    zip: Buffer.from(await response.arrayBuffer()),
  };
}

export type HeardEvent =
  | { event: typeof BUILD_EVENTS.snapshot; data: TBuildSnapshot }
  | { event: typeof BUILD_EVENTS.stage; data: TBuildStageEvent }
  | { event: typeof BUILD_EVENTS.completed; data: TBuildCompletedEvent }
  | { event: typeof BUILD_EVENTS.failed; data: TBuildFailedEvent };

/**
 * A browser's build screen in miniature: one Socket.IO connection to the `/builds` namespace of
 * a gateway, subscribed to some agents, recording every event per agent in arrival order.
 */
export class BuildFeed {
  private readonly heard = new Map<string, HeardEvent[]>();
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: Socket) {
    const record = (event: HeardEvent['event']) => (data: { session_id: string }) => {
      const list = this.heard.get(data.session_id) ?? [];
      list.push({ event, data } as HeardEvent);
      this.heard.set(data.session_id, list);
      for (const waiter of this.waiters) waiter();
    };
    for (const event of Object.values(BUILD_EVENTS)) {
      if (event !== BUILD_EVENTS.subscribe) socket.on(event, record(event));
    }
  }

  static connect(base: string, token: string, timeoutMs: number): Promise<BuildFeed> {
    const socket = io(`${base}${BUILDS_NAMESPACE}`, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      timeout: timeoutMs,
    });
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(new BuildFeed(socket)));
      socket.once('connect_error', (error) => {
        socket.close();
        reject(error);
      });
    });
  }

  async subscribe(sessionId: string, timeoutMs: number): Promise<TBuildSubscribeAck> {
    return (await this.socket
      .timeout(timeoutMs)
      .emitWithAck(BUILD_EVENTS.subscribe, { sessionId })) as TBuildSubscribeAck;
  }

  /** Everything heard about one agent so far, in arrival order. */
  events(sessionId: string): HeardEvent[] {
    return [...(this.heard.get(sessionId) ?? [])];
  }

  /** Resolves once `done(events of sessionId)` holds; rejects after `timeoutMs`. */
  waitFor(
    sessionId: string,
    done: (events: HeardEvent[]) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.events(sessionId))) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `${what}: not heard within ${timeoutMs} ms. Heard: ${JSON.stringify(this.events(sessionId))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.socket.close();
  }
}
