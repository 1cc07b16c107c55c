import { METRICS_PREFIX, processMetrics } from '@agentloom/server-kit';
import type { Job, Worker } from 'bullmq';
import { Gauge, Histogram } from 'prom-client';

/** Seconds: a small agent builds in seconds, a large source's embeddings take many minutes. */
const BUILD_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * How a build's run on this worker ended: built; failed (for good: the build is Failed);
 * retried (it failed and runs again, on any worker); interrupted (BullMQ gave it up because the
 * workers running it died, and this worker ended it Failed).
 */
export type BuildOutcome = 'built' | 'failed' | 'retried' | 'interrupted';

interface BuildInstruments {
  builds: Histogram<'outcome'>;
  running: Set<string>;
}

let instruments: BuildInstruments | undefined;

function buildMetrics(): BuildInstruments {
  if (instruments) return instruments;
  const registers = [processMetrics().registry];
  const running = new Set<string>();
  instruments = {
    running,
    builds: new Histogram({
      name: `${METRICS_PREFIX}build_duration_seconds`,
      help: 'Builds this worker ran, by outcome (built, failed, retried, interrupted), from the start of the run to its end; _count is the number of builds.',
      labelNames: ['outcome'],
      buckets: BUILD_BUCKETS,
      registers,
    }),
  };
  new Gauge({
    name: `${METRICS_PREFIX}builds_in_progress`,
    help: 'Builds this worker is running now.',
    registers,
    collect() {
      this.set(running.size);
    },
  });
  return instruments;
}

/** Counts the builds the queue's consumer runs: by outcome, timed, and those running now. */
export function watchBuilds(worker: Worker): void {
  const { builds, running } = buildMetrics();
  const ended = (job: Job | undefined, outcome: BuildOutcome) => {
    if (!job?.id) return;
    const ours = running.delete(job.id);
    if (outcome === 'failed' && !ours) outcome = 'interrupted';
    const seconds = ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000;
    builds.observe({ outcome }, Math.max(0, seconds));
  };
  worker.on('active', (job) => {
    if (job.id) running.add(job.id);
  });
  worker.on('completed', (job) => ended(job, 'built'));
  // finishedOn is set only when the job failed for good, not when it waits for a retry.
  worker.on('failed', (job) => ended(job, job?.finishedOn ? 'failed' : 'retried'));
}
