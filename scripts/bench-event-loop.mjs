// Preloaded (--import) into the gateways the benchmarks start: the gateway's own event-loop
// delay, from Node's histogram, for the bench to read over its IPC channel. A probe's round trip
// also counts the probe's own process and the machine's other work; this counts only the time the
// gateway's loop was late, which is what "search never blocks the event loop" is about.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const RESOLUTION_MS = 5;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // The histogram holds whole intervals between its timer's runs; late is what exceeds the 5 ms.
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
  process.on('message', (message) => {
    if (message === 'event-loop:reset') histogram.reset();
    if (message === 'event-loop:read')
      process.send({
        eventLoop: {
          p50: ms(histogram.percentile(50)),
          p95: ms(histogram.percentile(95)),
          p99: ms(histogram.percentile(99)),
          max: ms(histogram.max),
        },
      });
  });
  // The channel must not keep a gateway alive that Nest has otherwise shut down (adding the
  // listener refs it on the next tick).
  setImmediate(() => process.channel?.unref());
}
