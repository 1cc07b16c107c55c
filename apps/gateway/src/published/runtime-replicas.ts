import type { AgentEvent } from '@agentloom/agent-runtime';
import type { TRuntimeAnswerRequest } from '@agentloom/contracts';
import {
  HttpException,
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
} from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { AnswerRequest } from '../agents/local-answers';

/** The header that carries RUNTIME_SHARED_SECRET on the gateway's requests to a replica. */
export const RUNTIME_SECRET_HEADER = 'x-agentloom-runtime-secret';
export const RUNTIME_ANSWERS_PATH = '/internal/answers';
export const RUNTIME_UNREACHABLE =
  'The agent runtime cannot be reached right now. Please ask again in a minute.';

/**
 * Answers on the runtime replicas (PUBLISHED_RUNTIME_URLS). Any replica answers any turn of any
 * conversation: the agent's index lives in the object store and the conversation in Postgres, so
 * nothing is sticky. Name a balancer once (an nginx upstream, a Kubernetes Service), or a compose
 * service: a host name that resolves to several addresses (`--scale agent-runtime=3`) counts as
 * that many replicas, taken in turn. When a replica does not take the request (down, restarting),
 * the next one does. Once a replica has started to answer, the answer stays with it: an answer
 * cut off by a dying replica fails and is not stored, and is never told twice.
 */
@Injectable()
export class RuntimeReplicas {
  private readonly logger = new Logger(RuntimeReplicas.name);
  private turn = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.PUBLISHED_RUNTIME_URLS.length > 0;
  }

  async open(request: AnswerRequest, signal: AbortSignal): Promise<AsyncGenerator<AgentEvent>> {
    const body: TRuntimeAnswerRequest = {
      pipeline_id: request.target.pipelineId,
      build_id: request.target.buildId,
      user_id: request.target.userId,
      message: request.message,
      history: request.history,
    };
    for (const base of await this.order()) {
      let response: Response;
      try {
        response = await fetch(new URL(RUNTIME_ANSWERS_PATH, base), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [RUNTIME_SECRET_HEADER]: this.config.RUNTIME_SHARED_SECRET ?? '',
          },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        this.logger.warn(`Runtime replica ${base} did not take an answer: ${describe(error)}`);
        continue;
      }
      if (response.ok && response.body) return readEvents(response.body);
      const detail = await response
        .json()
        .then((json) => (json as { detail?: unknown }).detail)
        .catch(() => undefined);
      // 404 and 422 are the agent's (unpublished meanwhile, cannot start): the caller's answer.
      // Anything else (a wrong secret, a replica without its database) is the replica's: next.
      if ((response.status === 404 || response.status === 422) && typeof detail === 'string') {
        throw new HttpException({ detail }, response.status);
      }
      this.logger.warn(`Runtime replica ${base} answered ${response.status}: ${String(detail)}`);
    }
    throw new ServiceUnavailableException(RUNTIME_UNREACHABLE);
  }

  /** Every replica, starting with the next one in turn. */
  private async order(): Promise<string[]> {
    const urls = [
      ...new Set((await Promise.all(this.config.PUBLISHED_RUNTIME_URLS.map(expand))).flat()),
    ];
    const start = this.turn++ % urls.length;
    return [...urls.slice(start), ...urls.slice(0, start)];
  }
}

/** One URL per address the URL's host name resolves to now, in a stable order. */
async function expand(base: string): Promise<string[]> {
  const url = new URL(base);
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) return [url.toString()];
  try {
    const addresses = (await lookup(url.hostname, { all: true }))
      .map(({ address, family }) => (family === 6 ? `[${address}]` : address))
      .sort();
    return addresses.map((address) => {
      const replica = new URL(base);
      replica.hostname = address;
      return replica.toString();
    });
  } catch {
    // Not resolvable now (its containers restarting): the request to it fails over.
    return [url.toString()];
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The replica's server-sent events (`data: <AgentEvent JSON>`), as they arrive. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<AgentEvent> {
  const decoder = new TextDecoder();
  let buffered = '';
  let finished = false;
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data:'));
      buffered = buffered.slice(end + 2);
      if (data) {
        const event = JSON.parse(data.slice(5)) as AgentEvent;
        finished ||= event.type === 'done' || event.type === 'error';
        yield event;
      }
      end = buffered.indexOf('\n\n');
    }
  }
  // A replica stopped mid-answer: the half answer must not be stored as if complete.
  if (!finished) throw new Error('the agent runtime stopped in the middle of the answer');
}
