import type { AgentEvent } from '@agentloom/agent-runtime';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, type TestUser, serverSentEvents } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/** A fact only the CSV holds: no model could answer it without retrieving that row. */
export const SALES_HEADER = ['region', 'product', 'units'];
export const SALES_ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
  ['Braga', 'Tide clocks', '518'],
  ['Faro', 'Sun visors', '2290'],
];
const SALES_CSV = [SALES_HEADER, ...SALES_ROWS].map((row) => row.join(',')).join('\n') + '\n';

/** Server-sent events of a finished stream, parsed. */
const parseEvents = (text: string) => serverSentEvents<AgentEvent>(text);

/** The first event of a kind (the test fails here if there is none). */
export function eventOf<T extends AgentEvent['type']>(events: AgentEvent[], type: T) {
  const found = events.find((event) => event.type === type);
  if (!found) throw new Error(`no ${type} event in ${JSON.stringify(events)}`);
  return found as Extract<AgentEvent, { type: T }>;
}

export const answerOf = (events: AgentEvent[]) =>
  events.map((event) => (event.type === 'token' ? event.text : '')).join('');

export const tokenOf = (previewUrl: string) => new URL(previewUrl).pathname.split('/')[2] ?? '';

interface PreviewsApp {
  llm: LlmTestServer;
  t: TestApp;
  alice: TestUser;
  bob: TestUser;
  fixtures: string;
  salesCsv: string;
}

/**
 * What the live previews' specs share: an app whose providers are the LLM test server, two users,
 * a fixtures folder holding sales.csv and the folder SQLite previews may read (set up before and
 * torn down after the calling file's tests; `app` is filled in by then), and asking a preview.
 */
export function usePreviewsApp() {
  const app = {} as PreviewsApp;

  beforeAll(async () => {
    app.llm = await startLlmTestServer();
    app.fixtures = mkdtempSync(path.join(tmpdir(), 'previews-'));
    mkdirSync(path.join(app.fixtures, 'sqlite'));
    app.t = await createTestApp({
      SQLITE_PREVIEW_DIR: path.join(app.fixtures, 'sqlite'),
      OPENAI_BASE_URL: app.llm.baseUrls.openai ?? '',
      DEEPSEEK_BASE_URL: app.llm.baseUrls.deepseek ?? '',
      GEMINI_BASE_URL: app.llm.baseUrls.gemini ?? '',
    });
    app.alice = await signUpAndLogIn(app.t.url, 'alice');
    app.bob = await signUpAndLogIn(app.t.url, 'bob');
    app.salesCsv = path.join(app.fixtures, 'sales.csv');
    writeFileSync(app.salesCsv, SALES_CSV);
  });
  afterAll(async () => {
    await app.t.close();
    await app.llm.close();
    await rm(app.fixtures, { recursive: true, force: true });
  });

  /** Asks a preview a question: its stream as sent, and the events in it. */
  async function ask(token: string, question: string) {
    const response = await app.t.http
      .post(`/p/${token}/ask`)
      .send({ question })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => done(null, text));
      })
      .expect(200)
      .expect('Content-Type', /text\/event-stream/);
    const raw = response.body as string;
    return { raw, events: parseEvents(raw) };
  }

  return { app, ask };
}
