#!/usr/bin/env node
// npm run bench:upload — gateway memory while it receives and checks a 50 MB upload
// (issue #3 target: peak RSS rises by at most 30 MB: uploads stream to disk, parsers stream too).
//
// Starts the built gateway on its own port and database (agentloom_bench), creates a RAG and a
// SQL pipeline, and uploads a 50 MB CSV to each and a 50 MB text file, streamed from disk by the
// client, after a 1 KB warm-up upload. The gateway's peak RSS (VmHWM from /proc, reset before each upload through
// /proc/<pid>/clear_refs) is compared with its RSS just before the upload.
import { WIZARD_ROUTES } from '@agentloom/contracts';
import { randomUUID } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { signedInUser, startGateway } from './bench-gateway.mjs';

const port = Number(process.env.BENCH_PORT ?? 8766);
const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 50);
const targetMb = 30;

const work = await mkdtemp(path.join(os.tmpdir(), 'agentloom-bench-upload-'));
const gateway = await startGateway({
  port,
  dataDir: path.join(work, 'data'),
  env: { UPLOAD_MAX_BYTES: String((sizeMb + 1) * 1024 * 1024) },
});
const { call, stop } = gateway;

/** Resident and peak resident memory of the gateway, in MB, from /proc. */
async function memory() {
  const status = await readFile(`/proc/${gateway.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** A CSV (or plain text) of about `megabytes` MB, written in chunks. */
async function writeLargeFile(file, megabytes, csv) {
  const out = createWriteStream(file);
  if (csv) out.write('id,region,product,amount,comment\n');
  const target = megabytes * 1024 * 1024;
  let written = 0;
  let row = 0;
  while (written < target) {
    const lines = [];
    for (let i = 0; i < 1000; i += 1, row += 1) {
      lines.push(
        csv
          ? `${row},North,Widget ${row % 97},${(row * 7) % 1000}.50,"note, with a comma ${row}"`
          : `Line ${row}: the quick brown fox jumps over the lazy dog — ünïcödé ${row}`,
      );
    }
    const chunk = `${lines.join('\n')}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

async function measuredUpload(label, token, agentType, sourceType, file, name, megabytes = sizeMb) {
  const pipeline = await call(
    'POST',
    '/pipelines',
    { name: `${label} ${randomUUID().slice(0, 6)}`, agent_type: agentType },
    token,
  );
  await call(
    'POST',
    WIZARD_ROUTES[agentType].source,
    { session_id: pipeline.session_id, source_type: sourceType },
    token,
    'form',
  );
  const form = new FormData();
  form.append('session_id', pipeline.session_id);
  // openAsBlob is file-backed: the client streams from disk and holds nothing in memory either.
  form.append('file', await openAsBlob(file), name);

  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await writeFile(`/proc/${gateway.pid}/clear_refs`, '5'); // reset VmHWM to the current RSS
  const before = await memory();
  const started = performance.now();
  const result = await call('POST', WIZARD_ROUTES[agentType].upload, form, token, 'multipart');
  const seconds = (performance.now() - started) / 1000;
  const after = await memory();
  return {
    upload: label,
    'size MB': megabytes,
    seconds: Number(seconds.toFixed(2)),
    'RSS before MB': Math.round(before.rss),
    'peak RSS MB': Math.round(after.peak),
    'rise MB': Math.round(after.peak - before.rss),
    found: JSON.stringify(result.saved.file.summary).slice(0, 60),
  };
}

try {
  const token = await signedInUser(gateway);
  const csv = path.join(work, 'large.csv');
  const text = path.join(work, 'large.txt');
  await writeLargeFile(csv, sizeMb, true);
  await writeLargeFile(text, sizeMb, false);

  console.log(`\nbench:upload — ${sizeMb} MB uploads, target: peak RSS rise <= ${targetMb} MB`);
  // The process's first CSV upload also pays one-time costs (loading the parser's code, growing
  // the heap) that do not depend on the file's size; a 1 KB upload shows them separately.
  const small = path.join(work, 'small.csv');
  await writeFile(small, 'id,region\n1,North\n2,South\n');
  const rows = [
    await measuredUpload('warm-up CSV', token, 'rag', 'csv', small, 'small.csv', 0.001),
    await measuredUpload('RAG CSV', token, 'rag', 'csv', csv, 'large.csv'),
    await measuredUpload('RAG TXT', token, 'rag', 'text_file', text, 'large.txt'),
    await measuredUpload('SQL CSV', token, 'sql', 'csv', csv, 'large.csv'),
  ];
  console.table(rows);
  for (const row of rows.slice(1)) {
    console.log(
      `${row.upload}: ${row['rise MB'] <= targetMb ? 'PASS' : 'MISS'} (peak RSS rose ${row['rise MB']} MB, target <= ${targetMb} MB)`,
    );
  }
} finally {
  stop();
  await rm(work, { recursive: true, force: true });
}
