import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus registry of this process and the instruments every Agentloom process shares
 * (docs/operating.md, "Metrics"): Node's own (event-loop delay, heap, GC, open handles), the
 * calls to model providers, and the build queue's depth. Created once, on first use, the way
 * prom-client's metrics are meant to live: one set per process. Each app adds its own
 * instruments to the same registry.
 */
export interface ProcessMetrics {
  registry: Registry;
  providerCalls: Histogram<'kind' | 'provider' | 'outcome'>;
}

let metrics: ProcessMetrics | undefined;

/** Names every instrument starts with. */
export const METRICS_PREFIX = 'agentloom_';

/** Seconds: a provider call lasts from tens of milliseconds (a query's embedding) to minutes. */
const PROVIDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function processMetrics(): ProcessMetrics {
  if (metrics) return metrics;
  const registry = new Registry();
  // Event-loop delay is sampled every 10 ms (nodejs_eventloop_lag_*_seconds).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const providerCalls = new Histogram({
    name: `${METRICS_PREFIX}provider_call_duration_seconds`,
    help: 'Calls to model providers (chat, embeddings, images; local embedding runs as provider "local") by outcome: ok, or why they failed.',
    labelNames: ['kind', 'provider', 'outcome'],
    buckets: PROVIDER_BUCKETS,
    registers: [registry],
  });
  metrics = { registry, providerCalls };
  return metrics;
}

/** One provider call as @agentloom/agent-runtime's observer tells it. */
export function recordProviderCall(call: {
  kind: string;
  provider: string;
  outcome: string;
  seconds: number;
}): void {
  const { kind, provider, outcome } = call;
  processMetrics().providerCalls.observe({ kind, provider, outcome }, call.seconds);
}

/** Counts of the build queue's jobs by state, as BullMQ's getJobCounts answers. */
export type QueueCounts = Record<string, number>;

const queueReaders = new Set<() => Promise<QueueCounts>>();
/** A scrape must not wait on a Redis that does not answer: the gauge is left out instead. */
const QUEUE_READ_TIMEOUT_MS = 1_000;
let queueGauge: Gauge<'state'> | undefined;

/**
 * Reports the build queue's depth (`agentloom_build_queue_jobs{state}`) at each scrape, read by
 * `read` (the app's BullMQ queue). Every gateway and worker reports the same queue: use max().
 * Returns the function that stops reporting (the app's shutdown).
 */
export function watchQueueDepth(read: () => Promise<QueueCounts>): () => void {
  queueGauge ??= new Gauge({
    name: `${METRICS_PREFIX}build_queue_jobs`,
    help: 'Jobs in the build queue by state (waiting, prioritized, delayed, active, failed), read at each scrape.',
    labelNames: ['state'],
    registers: [processMetrics().registry],
    async collect() {
      this.reset();
      const [reader] = queueReaders;
      if (!reader) return;
      let timer: NodeJS.Timeout | undefined;
      const counts = await Promise.race([
        reader(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), QUEUE_READ_TIMEOUT_MS);
        }),
      ])
        .catch(() => undefined)
        .finally(() => clearTimeout(timer));
      for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
    },
  });
  queueReaders.add(read);
  return () => void queueReaders.delete(read);
}
