import { METRICS_PREFIX, processMetrics } from '@agentloom/server-kit';
import { Counter, Histogram } from 'prom-client';

/** Seconds: most API calls take milliseconds; uploads, builds' downloads and answers take longer. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** How a published agent's answer ended: stored, failed (the provider, the agent), or left. */
export type PublishedAnswerOutcome = 'answered' | 'failed' | 'cancelled';

interface GatewayInstruments {
  httpRequests: Histogram<'method' | 'route' | 'status'>;
  publishedAnswers: Counter<'agent' | 'outcome'>;
}

let instruments: GatewayInstruments | undefined;

/**
 * The gateway's and the runtime replicas' own instruments, in the process's registry (created
 * once: both apps may run in one test process).
 */
export function gatewayMetrics(): GatewayInstruments {
  if (instruments) return instruments;
  const registers = [processMetrics().registry];
  instruments = {
    httpRequests: new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by route pattern (unmatched: no route), method and status; _count is the number of requests. A streamed answer lasts until its end.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    publishedAnswers: new Counter({
      name: `${METRICS_PREFIX}published_answers_total`,
      help: 'Answers of published agents (API key, OpenAI-style API, widget, share page, MCP) by agent id and outcome.',
      labelNames: ['agent', 'outcome'],
      registers,
    }),
  };
  return instruments;
}

/** One answer of a published agent, counted by the gateway that took the question. */
export function countPublishedAnswer(agentId: string, outcome: PublishedAnswerOutcome): void {
  gatewayMetrics().publishedAnswers.inc({ agent: agentId, outcome });
}
