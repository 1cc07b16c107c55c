/**
 * The fault suite (see fault-suite.spec-helper.ts), the provider silent or cutting its stream
 * mid-answer, and a disk that fills up during an upload: the user is told, nothing half-done is
 * left behind, and the next attempt succeeds.
 */
import { WIZARD_ROUTES } from '@agentloom/contracts';
import type { AgentEvent } from '@agentloom/agent-runtime';
import { storeFolders } from '@agentloom/server-kit';
import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import {
  Load,
  parseEvents,
  SILENCE_MS,
  table,
  useFaultSuiteApp,
  waitFor,
} from './fault-suite.spec-helper';

describe('fault suite', () => {
  const { app, authReads } = useFaultSuiteApp();
  let llm: LlmTestServer;
  let base: string;
  let fixtures: string;
  let previewToken: string;
  beforeAll(() => {
    ({ llm, base, fixtures, previewToken } = app);
  });

  async function ask(): Promise<{ events: AgentEvent[]; ms: number }> {
    const started = Date.now();
    const response = await fetch(`${base}/p/${previewToken}/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'How many Quokka umbrellas in Lisbon?' }),
    });
    return { events: parseEvents(await response.text()), ms: Date.now() - started };
  }

  it.each([
    ['Provider silent mid-answer', 'stall'],
    ['Provider cuts the stream', 'cut'],
  ] as const)('%s', async (scenario, kind) => {
    const load = new Load(base, authReads());
    llm.breakNextStream({ kind, afterEvents: 2 });
    const { events, ms } = await ask();
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(events.some((event) => event.type === 'done')).toBe(false);
    if (kind === 'stall') expect(ms).toBeLessThan(SILENCE_MS + 3_000);
    const chat = llm.requests.filter((request) => request.path.includes('/chat/completions'));
    await waitFor(() => chat.at(-1)?.cancelled === true || kind === 'cut', 2_000);
    const recovered = Date.now();
    const next = await ask();
    expect(next.events.at(-1)).toEqual({ type: 'done' });
    const unaffected = await load.stop();
    expect(unaffected.failed).toBe(0);
    table.push({
      scenario,
      unaffected: `reads: ${unaffected.summary}`,
      outcome: `the words so far, then error "${(last as { detail: string }).detail.slice(0, 50)}…" after ${ms} ms`,
      recovery: `next question answered in ${Date.now() - recovered} ms`,
      data:
        kind === 'stall'
          ? 'no done event; provider call cancelled by the gateway: yes'
          : 'no done event',
    });
  });

  it('Disk full during an upload', async () => {
    const disk = mkdtempSync(path.join(tmpdir(), 'fault-disk-'));
    // A 2 MB file system of our own: filling it touches nobody else's disk.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
    let small: TestApp | undefined;
    try {
      small = await createTestApp({ DATA_DIR: disk });
      const owner = await signUpAndLogIn(small.url, 'diskfull');
      const created = await small.http
        .post('/pipelines')
        .set(owner.auth)
        .send({ name: 'Disk', agent_type: 'rag' })
        .expect(201);
      const id = created.body.session_id as string;
      await small.http
        .post(WIZARD_ROUTES.rag.source)
        .set(owner.auth)
        .type('form')
        .send({ session_id: id, source_type: 'csv' })
        .expect(200);
      const big = path.join(fixtures, 'big.csv');
      await writeFile(big, 'region,amount\n' + 'North,120\n'.repeat(60_000)); // ~600 kB
      const filler = path.join(disk, 'filler');
      await writeFile(filler, Buffer.alloc(1_700_000)); // leaves well under 600 kB free
      const smallBase = small.url;
      const load = new Load(smallBase, [
        { path: '/users/me', headers: { Authorization: `Bearer ${owner.token}` } },
        { path: '/pipelines', headers: { Authorization: `Bearer ${owner.token}` } },
      ]);
      const upload = () =>
        small!.http
          .post(WIZARD_ROUTES.rag.upload)
          .set(owner.auth)
          .field('session_id', id)
          .attach('file', big);
      const refused = await upload();
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toBe(
        'The server has no room to store files right now. Nothing was saved; please try again later.',
      );
      const leftovers = [
        ...(await readdir(path.join(disk, 'incoming'))),
        ...(await readdir(path.join(disk, storeFolders.uploads)).catch(() => [])),
      ];
      expect(leftovers).toEqual([]);
      const unaffected = await load.stop();
      const freed = Date.now();
      await rm(filler);
      await upload().expect(200);
      table.push({
        scenario: 'Disk full during upload',
        unaffected: `reads on the full disk's gateway: ${unaffected.summary}`,
        outcome: `upload 503 "${String(refused.body.detail).slice(0, 40)}…"`,
        recovery: `retry after space was freed: 200 in ${Date.now() - freed} ms`,
        data: 'partial files left behind: 0; the retried upload answered 200',
      });
    } finally {
      await small?.close();
      execFileSync('umount', [disk]);
      await rm(disk, { recursive: true, force: true });
    }
  });
});
