import {
  BUILD_EVENTS,
  buildPaths,
  BUILDS_NAMESPACE,
  BUILDS_QUEUE,
  RAG_BUILD_STAGES,
  TBuildJob,
  TBuildProgress,
} from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import { Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, Socket } from 'socket.io-client';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { BuildQueue } from './build-queue';

describe('Live build events (Socket.IO /builds)', () => {
  let t: TestApp;
  let url: string;
  let alice: TestUser;
  let bob: TestUser;
  let csv: string;
  let fixtures: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = `${t.url}${BUILDS_NAMESPACE}`;
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    fixtures = mkdtempSync(path.join(tmpdir(), 'build-events-'));
    csv = path.join(fixtures, 'sales.csv');
    await writeFile(csv, 'region,amount\nNorth,120\n');
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await t.app.get(BuildQueue).obliterate();
    await rm(fixtures, { recursive: true, force: true });
    await t.close();
  });

  function connect(token: string): Socket {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    return socket;
  }

  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  /**
   * A stand-in worker on the real queue: it reports progress the way builder-worker does and
   * records the outcome in Postgres, so the relay path (Redis stream → room) is real.
   */
  function standInWorker(): { worker: Worker<TBuildJob>; connection: Redis } {
    const connection = new Redis(t.config.REDIS_URL, { maxRetriesPerRequest: null });
    const worker = new Worker<TBuildJob>(
      BUILDS_QUEUE,
      async (job: Job<TBuildJob>) => {
        for (const [index, stage] of RAG_BUILD_STAGES.entries()) {
          for (const state of ['started', 'finished'] as const) {
            await job.updateProgress({
              buildId: job.data.buildId,
              stage,
              index,
              total: RAG_BUILD_STAGES.length,
              state,
              at: new Date().toISOString(),
            });
          }
        }
        await t.prisma.build.update({
          where: { id: job.data.buildId },
          data: {
            status: 'Built',
            artifact: storeKeys.artifactName(job.data.buildId),
            finishedAt: new Date(),
          },
        });
      },
      { connection, prefix: t.config.QUEUE_PREFIX },
    );
    return { worker, connection };
  }

  it.each([
    ['no token', ''],
    ['a malformed token', 'not.a.jwt'],
    ['a token signed with another key', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('refuses a handshake with %s (connect_error)', async (_what, token) => {
    await expect(connected(connect(token))).rejects.toThrow('Unauthorized: sign in again.');
  });

  it('user B cannot subscribe to user A’s agent', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const socket = connect(bob.token);
    await connected(socket);
    const ack: unknown = await socket.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id });
    expect(ack).toEqual({ ok: false, detail: 'Agent not found.' });
  });

  it('streams every stage in order and the completion; a late subscriber gets the final state', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const socket = connect(alice.token);
    await connected(socket);
    const snapshot = new Promise((resolve) => socket.once(BUILD_EVENTS.snapshot, resolve));
    expect(await socket.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id })).toEqual({
      ok: true,
    });
    expect(await snapshot).toEqual({ session_id: id, build: null });

    const stages: TBuildProgress[] = [];
    socket.on(BUILD_EVENTS.stage, (event: TBuildProgress) => stages.push(event));
    const completed = new Promise((resolve) => socket.once(BUILD_EVENTS.completed, resolve));

    const { worker, connection } = standInWorker();
    try {
      const started = await t.http
        .post(buildPaths.start('rag'))
        .set(alice.auth)
        .type('form')
        .send({ session_id: id })
        .expect(200);
      expect(await completed).toEqual({
        session_id: id,
        build_id: started.body.build_id,
        download_url: buildPaths.download('rag', id),
      });
      expect(stages.map((event) => `${event.stage}:${event.state}`)).toEqual(
        RAG_BUILD_STAGES.flatMap((stage) => [`${stage}:started`, `${stage}:finished`]),
      );
      expect(stages.every((event) => event.buildId === started.body.build_id)).toBe(true);

      const late = connect(alice.token);
      await connected(late);
      const lateSnapshot = new Promise<{ build: { status: string; build_id: string } }>((resolve) =>
        late.once(BUILD_EVENTS.snapshot, resolve),
      );
      await late.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id });
      expect((await lateSnapshot).build).toMatchObject({
        status: 'Built',
        build_id: started.body.build_id,
      });
    } finally {
      await worker.close();
      await connection.quit();
    }
  });
  // Issue 42, finding 4: a socket opened before a password reset still subscribed and received a
  // new build's 20 stage events, though its token was refused over HTTP.
  it('ends the live events of a socket whose password was reset: no subscribe, no stage', async () => {
    const carol = await signUpAndLogIn(t.url, 'carol');
    const id = await configureRagAgent(t.url, carol, { file: csv });
    const subscribed = connect(carol.token);
    await connected(subscribed);
    expect(await subscribed.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id })).toEqual({
      ok: true,
    });
    const idle = connect(carol.token);
    await connected(idle);
    const heard: string[] = [];
    subscribed.onAny((event: string) => heard.push(event));
    const subscribedClosed = new Promise((resolve) => subscribed.once('disconnect', resolve));

    // The real reset route, with a token stored as the e-mailed link's would be.
    const resetToken = randomBytes(32).toString('base64url');
    await t.prisma.passwordResetToken.create({
      data: {
        userId: carol.id,
        tokenHash: createHash('sha256').update(resetToken).digest('hex'),
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    const password = 'a password nobody else knows';
    await t.http
      .post('/reset-password')
      .send({ token: resetToken, new_password: password, confirm_password: password })
      .expect(200);
    await t.http.get('/users/me').set(carol.auth).expect(401);

    const idleClosed = new Promise((resolve) => idle.once('disconnect', resolve));
    expect(await idle.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id })).toEqual({
      ok: false,
      detail: 'Your session has ended (it expired or the password was changed). Sign in again.',
    });
    await idleClosed;

    // A build started with the new password: its events reach a new socket, not the old one.
    const login = await t.http
      .post('/auth/login')
      .send({ email: carol.email, password })
      .expect(200);
    const token = login.body.access_token as string;
    const fresh = connect(token);
    await connected(fresh);
    await fresh.emitWithAck(BUILD_EVENTS.subscribe, { sessionId: id });
    const stages: string[] = [];
    fresh.on(BUILD_EVENTS.stage, (event: TBuildProgress) => stages.push(event.stage));
    const completed = new Promise((resolve) => fresh.once(BUILD_EVENTS.completed, resolve));
    const { worker, connection } = standInWorker();
    try {
      await t.http
        .post(buildPaths.start('rag'))
        .set({ Authorization: `Bearer ${token}` })
        .type('form')
        .send({ session_id: id })
        .expect(200);
      await completed;
      expect(stages).toHaveLength(2 * RAG_BUILD_STAGES.length);
      await subscribedClosed;
      expect(heard).toEqual([]);
    } finally {
      await worker.close();
      await connection.quit();
    }
  });
});
