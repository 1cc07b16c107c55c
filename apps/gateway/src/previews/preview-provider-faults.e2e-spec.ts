import type { AgentEvent } from '@agentloom/agent-runtime';
import {
  startLlmTestServer,
  type LlmTestServer,
  type RecordedRequest,
} from '@agentloom/agent-runtime/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvChunks, markBuilt } from '../testing/built-agents';
import {
  configureRagAgent,
  signUpAndLogIn,
  type TestUser,
  WIZARD_LLM_KEY,
  serverSentEvents,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
];
const SILENCE_MS = 2_000;

const parseEvents = (text: string) => serverSentEvents<AgentEvent>(text);

describe('previews when the provider is slow, cuts the stream, or the page goes away', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let user: TestUser;
  let fixtures: string;
  let base: string;
  let token: string;
  let pipelineId: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'provider-faults-'));
    t = await createTestApp({
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      PROVIDER_TIMEOUT_MS: String(SILENCE_MS),
    });
    base = t.url;
    user = await signUpAndLogIn(t.url, 'providerfault');
    const csv = path.join(fixtures, 'sales.csv');
    writeFileSync(csv, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    const id = await configureRagAgent(t.url, user, { file: csv });
    pipelineId = id;
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: user.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
      t.config,
    );
    const started = await t.http.post(`/rag/previews/${id}/start`).set(user.auth).expect(200);
    token = new URL(started.body.preview_url as string).pathname.split('/')[2] ?? '';
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  const ask = (signal?: AbortSignal) =>
    fetch(`${base}/p/${token}/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'How many Quokka umbrellas in Lisbon?' }),
      signal,
    });
  const lastChatRequest = (): RecordedRequest | undefined =>
    llm.requests.filter((request) => request.path.includes('/chat/completions')).at(-1);
  /** Polls the provider's side until the last chat call's connection is closed by the gateway. */
  async function cancelledWithin(ms: number): Promise<void> {
    const since = Date.now();
    while (!lastChatRequest()?.cancelled) {
      if (Date.now() - since > ms)
        throw new Error(`the provider call was not cancelled in ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a provider that goes silent mid-answer: the words so far, then an error naming the wait', async () => {
    llm.breakNextStream({ kind: 'stall', afterEvents: 2 });
    const started = Date.now();
    const events = parseEvents(await (await ask()).text());
    expect(Date.now() - started).toBeLessThan(SILENCE_MS + 3_000);
    expect(events.some((event) => event.type === 'token')).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'error',
      detail: 'The model provider did not answer within 2 seconds. Please ask again.',
    });
    expect(events.some((event) => event.type === 'done')).toBe(false);
    await cancelledWithin(1_000);
  });

  it('a provider that drops the connection mid-answer: an error, not a hang or a done', async () => {
    llm.breakNextStream({ kind: 'cut', afterEvents: 2 });
    const events = parseEvents(await (await ask()).text());
    expect(events.at(-1)?.type).toBe('error');
    expect(events.some((event) => event.type === 'done')).toBe(false);
  });

  it('the page goes away mid-answer: the provider call is cancelled at once', async () => {
    llm.breakNextStream({ kind: 'stall', afterEvents: 2 });
    const page = new AbortController();
    const response = await ask(page.signal);
    const reader = response.body!.getReader();
    await reader.read(); // the answer has started
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lastChatRequest()?.cancelled).toBe(false);
    page.abort();
    // Well before the provider's silence would have ended it (SILENCE_MS).
    await cancelledWithin(SILENCE_MS / 2);
  });

  it('a key the provider refuses: plain words, the step that fixes it, no sources', async () => {
    llm.rejectedKeys.add(WIZARD_LLM_KEY);
    try {
      const events = parseEvents(await (await ask()).text());
      expect(events.at(-1)).toEqual({
        type: 'error',
        detail: 'The provider rejected the API key (401).',
        reason: 'key',
        message: 'OpenAI rejected your key — update it.',
        action: {
          label: 'Update the key',
          href: `${t.config.PUBLIC_URL.replace(/\/+$/, '')}/pipeline/rag/${pipelineId}?step=6`,
        },
      });
      expect(JSON.stringify(events)).not.toContain(WIZARD_LLM_KEY);
    } finally {
      llm.rejectedKeys.delete(WIZARD_LLM_KEY);
    }
  });

  it('afterwards the preview answers normally', async () => {
    const events = parseEvents(await (await ask()).text());
    expect(events.at(-1)).toEqual({ type: 'done' });
  });
});
