#!/usr/bin/env node
// npm run bench:api — throughput and latency of authenticated routes against a trivial route
// on the same gateway process (issue #2 target: >= 40% of the trivial route, p99 < 50 ms).
//
// Starts the built gateway on its own port and database (agentloom_bench), signs a user up,
// stores 10 API keys, then runs autocannon with 50 connections for BENCH_SECONDS (10) per route.
// BENCH_GATEWAY_FLAGS passes Node flags to the gateway (see bench-gateway.mjs).
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { signedInUser, startGateway } from './bench-gateway.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 8765);

const gateway = await startGateway({
  port,
  dataDir: path.join(os.tmpdir(), `agentloom-bench-${process.pid}`),
});
const { base, call, stop } = gateway;

function run(url, headers = {}) {
  return autocannon({ url: `${base}${url}`, connections, duration: seconds, headers });
}

try {
  const token = await signedInUser(gateway);
  for (let i = 0; i < 10; i += 1) {
    await call('POST', '/apikeys', { provider: 'openai', key: `sk-bench-${randomUUID()}` }, token);
  }
  const keys = await call('GET', '/apikeys', undefined, token);
  if (keys.length !== 10) throw new Error(`expected 10 keys, found ${keys.length}`);

  const auth = { authorization: `Bearer ${token}` };
  console.log(
    `\nbench:api — ${connections} connections, ${seconds} s per route, ${os.cpus().length} cores`,
  );
  const results = [
    ['GET /health/live (trivial)', await run('/health/live')],
    ['GET /users/me', await run('/users/me', auth)],
    ['GET /apikeys (10 keys)', await run('/apikeys', auth)],
  ];
  const trivial = results[0][1].requests.average;
  const rows = results.map(([route, r]) => ({
    route,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'non-2xx': r.non2xx,
    '% of trivial': `${Math.round((r.requests.average / trivial) * 100)}%`,
  }));
  console.table(rows);
  const trivialP99 = rows[0]['p99 ms'];
  for (const row of rows.slice(1)) {
    const share = Number.parseInt(row['% of trivial'], 10);
    const verdict = (ok) => (ok ? 'PASS' : 'MISS');
    console.log(
      `${row.route}: throughput ${verdict(share >= 40)} (${row['% of trivial']} of trivial, target >= 40%); ` +
        `p99 ${verdict(row['p99 ms'] < 50)} (${row['p99 ms']} ms, target < 50 ms; the trivial route's own p99 is ${trivialP99} ms); ` +
        `errors ${verdict(row['non-2xx'] === 0)} (${row['non-2xx']} non-2xx)`,
    );
  }
} finally {
  stop();
}
