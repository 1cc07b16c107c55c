// npm run bench:published — published agents under load (issue #20): the runtime's overhead per
// question (total minus the provider's time) p50/p95 with 50 conversations at once, and the
// memory each loaded published agent holds in the gateway.
//
// Like bench:preview: the built gateway and builder-worker as real processes on their own
// database (agentloom_bench_published), the agent runtime's local OpenAI-compatible server in this
// process (its time per request is recorded, so the provider's share can be subtracted), and RAG
// agents over a 1 MB CSV configured through the wizard's API and built by the real worker. Then:
//   memory       BENCH_AGENTS (3) agents published; the gateway's RSS before any was loaded and
//                after each one's first question (which loads it: chunks read, embedded, indexed);
//   sequential   BENCH_QUESTIONS (200) questions one at a time through POST /agents/{id}/chat
//                (streamed), each a new conversation — the same load bench:preview measures;
//   concurrent   BENCH_CONVERSATIONS (50) conversations at once, BENCH_TURNS (4) questions each,
//                every question after the first continuing its conversation (memory: the earlier
//                turns are read from Postgres and sent to the model).
// Prints the figures; never fails on a figure.
import { readFileSync } from 'node:fs';
import {
  askPublished,
  buildRagAgent,
  ms,
  percentile,
  runBench,
  withRagStack,
} from './bench-rag-agent.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 3);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 200);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 4);

/** Resident memory of a process, in MB (Linux). */
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** One question through the API (bench-rag-agent.mjs): its total time and overhead. */
const ask = (gateway, llm, agent, order, conversationId) =>
  askPublished(gateway.base, llm, agent, order, conversationId);

function summary(label, all) {
  const results = all.filter((r) => !r.failed);
  const failures = all.filter((r) => r.failed).map((r) => r.failed);
  if (failures.length > 0) {
    const kinds = [...new Set(failures)].map(
      (f) => `${failures.filter((x) => x === f).length}× ${f}`,
    );
    console.log(
      `  ${label.padEnd(22)} ${failures.length} of ${all.length} failed: ${kinds.join('; ')}`,
    );
  }
  if (results.length === 0) return;
  const totals = results.map((r) => r.total).sort((a, b) => a - b);
  const overheads = results.map((r) => r.overhead).sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(22)} total p50 ${ms(percentile(totals, 0.5))}  p95 ${ms(percentile(totals, 0.95))}` +
      ` · overhead p50 ${ms(percentile(overheads, 0.5))}  p95 ${ms(percentile(overheads, 0.95))}`,
  );
}

async function main() {
  await withRagStack(
    { name: 'published', port: 18310, env: { PUBLISHED_MEMORY_TURNS: '6' } },
    async ({ llm, gateway, token, csv }) => {
      const agents = [];
      for (let n = 0; n < AGENTS; n += 1) {
        const id = await buildRagAgent(gateway, token, `Published benchmark ${n + 1}`, csv);
        await gateway.call('PUT', `/agents/${id}/publication`, undefined, token);
        const key = await gateway.call(
          'POST',
          `/agents/${id}/keys`,
          { name: 'bench', rate_limit_per_minute: 10_000 },
          token,
        );
        agents.push({ id, key: key.secret });
      }

      const before = rssMb(gateway.pid);
      const loads = [];
      let last = before;
      for (const agent of agents) {
        const t0 = performance.now();
        await ask(gateway, llm, agent, 1);
        loads.push(performance.now() - t0);
        const now = rssMb(gateway.pid);
        agent.mb = now - last;
        last = now;
      }

      console.log(`  (agents built and loaded; ${QUESTIONS} questions one at a time…)`);
      const sequential = [];
      for (let q = 0; q < QUESTIONS; q += 1) {
        sequential.push(await ask(gateway, llm, agents[0], 1 + ((q * 7919) % csv.rows)));
      }

      console.log(`  (${CONVERSATIONS} conversations at once…)`);
      const concurrent = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONVERSATIONS }, async (_, c) => {
          let conversation;
          for (let turn = 0; turn < TURNS; turn += 1) {
            const order = 1 + (((c * TURNS + turn) * 104729) % csv.rows);
            const result = await ask(gateway, llm, agents[c % agents.length], order, conversation);
            conversation = result.conversation ?? conversation;
            concurrent.push(result);
          }
        }),
      );
      const wall = performance.now() - started;

      console.log(
        '\nbench:published — published RAG agents over a 1 MB CSV, POST /agents/{id}/chat',
      );
      console.log(
        `  source                 ${csv.rows} rows, ${(csv.text.length / 1024).toFixed(0)} KB`,
      );
      console.log(
        `  first question (load)  ${loads.map((value) => ms(value)).join(', ')} (chunks read, embedded, indexed)`,
      );
      console.log(
        `  gateway memory         ${before.toFixed(0)} MB before any agent; per loaded agent ` +
          `${agents.map((agent) => `${agent.mb.toFixed(1)} MB`).join(', ')} (RSS growth)`,
      );
      summary(`sequential (${QUESTIONS})`, sequential);
      summary(`${CONVERSATIONS} at once (${concurrent.length})`, concurrent);
      console.log(
        `  throughput             ${((concurrent.length / wall) * 1000).toFixed(1)} questions/s with ${CONVERSATIONS} conversations, ${TURNS} turns each`,
      );
      console.log(`  gateway memory after   ${rssMb(gateway.pid).toFixed(0)} MB`);
    },
  );
}

runBench(main);
