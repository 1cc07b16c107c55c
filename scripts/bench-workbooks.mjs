#!/usr/bin/env node
// npm run bench:workbooks — the gateway while it reads heavy workbooks (issue 42, finding 9):
// BENCH_WORKBOOKS (10) uploads at once, from five users, of a workbook whose shared strings hold
// BENCH_WORKBOOK_MB (171) MB of distinct strings — the probe's 26 MB workbook that held the
// gateway's event loop (/health/live 472 ms for one, 6.2 s for ten) and took it to 3.6 GB.
//
// Starts the built gateway on its own port and database (agentloom_bench) with its default parse
// limits (PARSE_MAX_CONCURRENT 2, PARSE_MAX_PER_USER 2, XLSX_PARSE_MAX_HEAP_MB 512), asks
// /health/live every 20 ms from a thread of its own while the uploads run, and prints its latency,
// the gateway's peak RSS (VmHWM, reset first) and each upload's answer and time. Printed, never
// asserted: the figures depend on the machine.
import { WIZARD_ROUTES } from '@agentloom/contracts';
import { sharedStringsWorkbook, zip } from '@agentloom/source-readers/testing';
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { signedInUser, startGateway } from './bench-gateway.mjs';
import { healthWhile } from './bench-probes.mjs';

const port = Number(process.env.BENCH_PORT ?? 8767);
const workbooks = Number(process.env.BENCH_WORKBOOKS ?? 10);
const stringsMb = Number(process.env.BENCH_WORKBOOK_MB ?? 171);
const USERS = 5;

const work = await mkdtemp(path.join(os.tmpdir(), 'agentloom-bench-workbooks-'));
const file = path.join(work, 'heavy.xlsx');
const bytes = zip(sharedStringsWorkbook(stringsMb));
await writeFile(file, bytes);
const fileMb = bytes.length / 1024 / 1024;

const gateway = await startGateway({
  port,
  dataDir: path.join(work, 'data'),
  env: { UPLOAD_MAX_BYTES: String(Math.ceil(fileMb + 1) * 1024 * 1024) },
});
const { base, call, stop } = gateway;

/** Resident and peak resident memory of the gateway, in MB, from /proc. */
async function memory() {
  const status = await readFile(`/proc/${gateway.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function excelAgent(token) {
  const pipeline = await call(
    'POST',
    '/pipelines',
    { name: `Workbook ${randomUUID().slice(0, 6)}`, agent_type: 'rag' },
    token,
  );
  const fields = { session_id: pipeline.session_id, source_type: 'excel' };
  await call('POST', WIZARD_ROUTES.rag.source, fields, token, 'form');
  return pipeline.session_id;
}

/** One upload: its status, its time and the first words of its answer. */
async function upload(token, sessionId) {
  const form = new FormData();
  form.append('session_id', sessionId);
  form.append('file', await openAsBlob(file), 'heavy.xlsx');
  const started = performance.now();
  const response = await fetch(`${base}${WIZARD_ROUTES.rag.upload}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await response.json();
  return {
    status: response.status,
    seconds: (performance.now() - started) / 1000,
    answer: response.ok ? JSON.stringify(body.saved.file.summary) : body.detail,
  };
}

try {
  const tokens = await Promise.all(Array.from({ length: USERS }, () => signedInUser(gateway)));
  const agents = await Promise.all(
    Array.from({ length: workbooks }, (_, i) => excelAgent(tokens[i % USERS])),
  );
  const idle = await healthWhile(
    base,
    () => new Promise((r) => setTimeout(r, 2000)),
    '/health/live',
  );
  await writeFile(`/proc/${gateway.pid}/clear_refs`, '5'); // reset VmHWM to the current RSS
  const before = await memory();
  let results = [];
  const busy = await healthWhile(
    base,
    async () => {
      results = await Promise.all(agents.map((id, i) => upload(tokens[i % USERS], id)));
    },
    '/health/live',
  );
  const after = await memory();
  const ms = (value) => Number(value.toFixed(1));
  console.log(
    `\n${workbooks} uploads at once of a ${fileMb.toFixed(1)} MB workbook holding ${stringsMb} MB of shared strings`,
  );
  console.table(
    [
      ['idle', idle],
      [`${workbooks} workbooks parsing`, busy],
    ].map(([phase, health]) => ({
      phase,
      'live p50 ms': ms(health.p50),
      'live p95 ms': ms(health.p95),
      'live p99 ms': ms(health.p99),
      'live max ms': ms(health.max),
      probes: health.count,
    })),
  );
  console.log(
    `gateway RSS ${Math.round(before.rss)} MB before, peak ${Math.round(after.peak)} MB (+${Math.round(after.peak - before.rss)} MB)`,
  );
  console.table(
    results.map((result, i) => ({
      upload: i + 1,
      status: result.status,
      seconds: Number(result.seconds.toFixed(1)),
      answer: result.answer.slice(0, 90),
    })),
  );
} finally {
  await stop();
  await rm(work, { recursive: true, force: true });
}
