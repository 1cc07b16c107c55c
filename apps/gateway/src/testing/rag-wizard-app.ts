import { WIZARD_ROUTES, wizardRoute } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { storeKeys } from '@agentloom/server-kit';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createMariaDbSource,
  createPostgresSource,
  dropMariaDbSource,
  dropPostgresSource,
} from '@agentloom/data-sources/testing';
import { startTcpForwarder } from '@agentloom/data-sources/testing';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from './test-app';

export const OPENAI_KEY = 'sk-proj-RagWizardKey-1234567890abcdWXYZ';
export const PINECONE_KEY = 'pcsk_PineconeSecret_0987654321_qrst';
export const SALES_CSV =
  'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\nEast,Widget,42\n';

interface RagWizardApp {
  t: TestApp;
  alice: TestUser;
  bob: TestUser;
  fixtures: string;
  forwarder: { port: number; close: () => Promise<void> };
}

/**
 * What the RAG wizard's specs share: an app with two users, a fixtures folder, the source
 * databases and a forwarder to Postgres (set up before and torn down after the calling file's
 * tests; `app` is filled in by then), and the wizard's calls as the web app makes them.
 */
export function useRagWizardApp() {
  const app = {} as RagWizardApp;
  beforeAll(async () => {
    app.t = await createTestApp();
    app.alice = await signUpAndLogIn(app.t.url, 'alice');
    app.bob = await signUpAndLogIn(app.t.url, 'bob');
    app.fixtures = mkdtempSync(path.join(tmpdir(), 'rag-wizard-'));
    await Promise.all([createMariaDbSource(), createPostgresSource()]);
    app.forwarder = await startTcpForwarder(5432);
  });
  afterAll(async () => {
    await app.forwarder.close();
    await Promise.all([dropMariaDbSource(), dropPostgresSource()]);
    await rm(app.fixtures, { recursive: true, force: true });
    await app.t.close();
  });

  const form = (user: TestUser, step: string, fields: Record<string, string | number>) =>
    app.t.http.post(wizardRoute('rag', step)).set(user.auth).type('form').send(fields);

  const upload = (user: TestUser, sessionId: string, file: string | Buffer, name?: string) =>
    app.t.http
      .post(WIZARD_ROUTES.rag.upload)
      .set(user.auth)
      .field('session_id', sessionId)
      .attach('file', file, name ? { filename: name } : undefined);

  async function newPipeline(user: TestUser, name = `RAG ${Math.random()}`): Promise<string> {
    const { body } = await app.t.http
      .post('/pipelines')
      .set(user.auth)
      .send({ name, agent_type: 'rag' })
      .expect(201);
    return body.session_id as string;
  }

  async function fixture(name: string, content: string | Uint8Array): Promise<string> {
    const file = path.join(app.fixtures, name);
    await writeFile(file, content);
    return file;
  }

  /** GET /pipelines/{id} as the owner sees it (untyped JSON, like every supertest body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const detail = async (user: TestUser, id: string): Promise<Record<string, any>> => {
    const response = await app.t.http.get(`/pipelines/${id}`).set(user.auth).expect(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return response.body as Record<string, any>;
  };

  /** Every file the gateway keeps for the pipeline (server-made names only). */
  const storedFiles = (id: string) =>
    readdir(path.join(app.t.config.DATA_DIR, storeKeys.uploads(id))).catch(() => [] as string[]);

  return { app, form, upload, newPipeline, fixture, detail, storedFiles };
}
