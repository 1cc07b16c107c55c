import { WIZARD_ROUTES } from '@agentloom/contracts';
import { acquireParseSlot, parseSlotsInUse } from '@agentloom/source-readers';
import { sharedStringsWorkbook, zip } from '@agentloom/source-readers/testing';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 42, finding 9: one 26 MB workbook of 171 MB of shared strings held the gateway's event
 * loop while it parsed, and ten at once took it to 3.6 GB. Workbooks are now parsed in worker
 * threads with a heap cap, a few at a time per process and per user (bench:workbooks prints
 * /health/live's latency while ten parse).
 */
describe('heavy parses: bounded per user, per process and in memory', () => {
  let t: TestApp;
  let alice: TestUser;
  let fixtures: string;

  beforeAll(async () => {
    t = await createTestApp({
      PARSE_MAX_CONCURRENT: '1',
      PARSE_MAX_PER_USER: '1',
      XLSX_PARSE_MAX_HEAP_MB: '32',
      UPLOAD_MAX_BYTES: String(64 * 1024 * 1024),
    });
    alice = await signUpAndLogIn(t.url, 'alice');
    fixtures = mkdtempSync(path.join(tmpdir(), 'parse-limits-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  async function excelAgent(user: TestUser): Promise<string> {
    const created = await t.http
      .post('/pipelines')
      .set(user.auth)
      .send({ name: `Workbook ${Math.random()}`, agent_type: 'rag' })
      .expect(201);
    const id = created.body.session_id as string;
    await t.http
      .post(WIZARD_ROUTES.rag.source)
      .set(user.auth)
      .type('form')
      .send({ session_id: id, source_type: 'excel' })
      .expect(200);
    return id;
  }
  const upload = (user: TestUser, id: string, file: string) =>
    t.http
      .post(WIZARD_ROUTES.rag.upload)
      .set(user.auth)
      .field('session_id', id)
      .attach('file', file);

  it("answers 429 to a user's parse beyond their limit while the others wait their turn", async () => {
    const small = path.join(fixtures, 'small.xlsx');
    await writeFile(small, zip(sharedStringsWorkbook(1)));
    const [first, second] = [await excelAgent(alice), await excelAgent(alice)];
    // Another parse holds the process's only slot: alice's first upload waits for it.
    const release = await acquireParseSlot();
    const waiting = upload(alice, first, small).then((res) => res);
    while (parseSlotsInUse().waiting === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await upload(alice, second, small).expect(429);
    expect(refused.body).toEqual({
      detail: 'You already have 1 file being read. Wait for it to finish, then try again.',
    });
    release();
    expect((await waiting).status).toBe(200);
    // Her limit is free again.
    await upload(alice, second, small).expect(200);
  });

  it('refuses a workbook whose shared strings need more than its heap, and the gateway carries on', async () => {
    const heavy = path.join(fixtures, 'heavy.xlsx');
    await writeFile(heavy, zip(sharedStringsWorkbook(8)));
    const id = await excelAgent(alice);
    const refused = await upload(alice, id, heavy).expect(422);
    expect(refused.body.detail).toBe(
      'The workbook could not be read: it needs more than the 32 MB of memory a workbook may use here. Save its sheets as separate, smaller workbooks, or as CSV.',
    );
    await t.http.get('/health/live').expect(200);
    const small = path.join(fixtures, 'small.xlsx');
    const saved = await upload(alice, id, small).expect(200);
    expect(saved.body.saved.file.summary).toMatchObject({ kind: 'excel', rows: 2 });
  }, 120_000);
});
