import { WIZARD_ROUTES, wizardPaths } from '@agentloom/contracts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  deflated,
  deflatedZeros,
  inflatingPdf,
  peopleWorkbook,
  twoPagePdf,
  oneSheetWorkbook,
  writeWithPython,
  zip,
} from '@agentloom/source-readers/testing';
import { storeKeys } from '@agentloom/server-kit';
import { writeFile } from 'node:fs/promises';
import { SALES_CSV, useRagWizardApp } from '../testing/rag-wizard-app';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

describe('RAG wizard API', () => {
  const { app, form, upload, newPipeline, fixture, detail, storedFiles } = useRagWizardApp();
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  beforeAll(() => {
    ({ t, alice, bob, fixtures } = app);
  });

  describe('uploads', () => {
    it('checks content, not the name: HTML renamed .pdf → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        await fixture(
          'report.pdf',
          '<!doctype html><html><body><script>alert(1)</script></body></html>',
        ),
      ).expect(415);
      expect(body).toEqual({ detail: 'The file is not a PDF.' });
      expect(await storedFiles(id)).toEqual([]);
    });

    it('shows an upload back: the first rows with counts, or the first passages', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      await upload(alice, id, await fixture('sales.csv', SALES_CSV)).expect(200);
      const sample = await t.http.get(wizardPaths.sourceSample(id)).set(alice.auth).expect(200);
      expect(sample.body).toEqual({
        kind: 'csv',
        counts: '3 rows · 3 columns',
        columns: ['region', 'product', 'amount'],
        rows: [
          ['North', 'Widget', '120'],
          ['South', 'Gadget', '80'],
          ['East', 'Widget', '42'],
        ],
        passages: [],
      });
      await t.http.get(wizardPaths.sourceSample(id)).set(bob.auth).expect(404);

      await form(alice, 'source', { session_id: id, source_type: 'text_file' }).expect(200);
      await upload(alice, id, await fixture('notes.txt', 'First note.\n\nSecond note.\n')).expect(
        200,
      );
      const text = await t.http.get(wizardPaths.sourceSample(id)).set(alice.auth).expect(200);
      expect(text.body).toMatchObject({
        kind: 'text_file',
        counts: expect.stringMatching(/^\d+ lines · \d+ characters$/),
        passages: ['First note. Second note.'],
      });
    });

    // Issue 43, item 1: openpyxl's absolute part names read as "columns": [], the build failed
    // with "no sheet named", and the sample answered 500.
    it('reads a workbook openpyxl wrote; a stored file damaged later answers 422, never 500', async () => {
      writeWithPython(
        fixtures,
        `
import openpyxl
wb = openpyxl.Workbook()
ws = wb.active
ws.title = 'Stations'
for row in [('station', 'riders'), ('North', 120), ('South', 80)]: ws.append(row)
wb.save('stations.xlsx')
`,
      );
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
      const { body } = await upload(alice, id, path.join(fixtures, 'stations.xlsx')).expect(200);
      expect(body.saved.file.summary).toEqual({
        kind: 'excel',
        sheet: 'Stations',
        sheets: ['Stations'],
        columns: ['station', 'riders'],
        rows: 2,
      });
      const sample = await t.http.get(wizardPaths.sourceSample(id)).set(alice.auth).expect(200);
      expect(sample.body).toMatchObject({
        columns: ['station', 'riders'],
        rows: [
          ['North', '120'],
          ['South', '80'],
        ],
      });

      const [stored] = await storedFiles(id);
      const folder = path.join(t.config.DATA_DIR, storeKeys.uploads(id));
      await writeFile(
        path.join(folder, stored!),
        Buffer.from('PK\u0003\u0004 not a workbook any more'),
      );
      const damaged = await t.http.get(wizardPaths.sourceSample(id)).set(alice.auth);
      expect([damaged.status, damaged.body]).toEqual([
        expect.any(Number),
        {
          detail: expect.stringMatching(
            /^The (workbook could not be read|file is not an Excel workbook)/,
          ),
        },
      ]);
      expect([415, 422]).toContain(damaged.status);
    }, 300_000);

    it('reads a real PDF and reports pages and characters', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        await fixture('guide.pdf', await twoPagePdf()),
      ).expect(200);
      expect(body.saved.file.summary).toEqual({ kind: 'pdf', pages: 2, characters: 30 });
    });

    // Issue 42, finding 2: 200 after 15.5 s, the gateway from 0.5 to 2.6 GB.
    it('a 1 MB PDF inflating to 1 GB → 422 with a plain message, memory bounded', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const file = await fixture('bomb.pdf', inflatingPdf(1024));
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const started = Date.now();
      const { body } = await upload(alice, id, file).expect(422);
      clearInterval(sampler);
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      console.log(
        `gateway RSS with the 1 GB PDF bomb: ${mb(before)} MB before, peak ${mb(peak)} MB (+${mb(peak - before)} MB), answered in ${Date.now() - started} ms`,
      );
      expect(body.detail).toBe(
        'The PDF could not be read: its compressed content expands beyond what an upload may unpack (64 MB in one part, 256 MB in all).',
      );
      expect(peak - before).toBeLessThan(400 * 1024 * 1024);
      expect(await storedFiles(id)).toEqual([]);
    });

    it('a corrupt PDF → 422 with the parser’s reason', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 'x')]);
      const { body } = await upload(alice, id, await fixture('broken.pdf', corrupt)).expect(422);
      expect(body.detail).toMatch(/^The PDF could not be read: .+/);
    });

    it('a zip renamed .csv → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      const archive = zip([deflated('data.csv', SALES_CSV)]);
      const { body } = await upload(alice, id, await fixture('data.csv', archive)).expect(415);
      expect(body.detail).toMatch(/not UTF-8 text|is a zip/i);
    });

    it('an XLSX zip bomb is refused without inflating it', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
      const bomb = zip(
        oneSheetWorkbook({
          name: 'xl/worksheets/sheet1.xml',
          data: deflatedZeros(300),
          uncompressedSize: 300 * 1024 * 1024,
        }),
      );
      const rssBefore = process.memoryUsage().rss;
      const { body } = await upload(alice, id, await fixture('bomb.xlsx', bomb)).expect(415);
      expect(body.detail).toMatch(/expand/i);
      // The 300 MB were never materialized.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    });

    it('reads a real workbook: sheet, columns and rows', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
      const { body } = await upload(alice, id, await peopleWorkbook(fixtures)).expect(200);
      expect(body.saved.file.summary).toMatchObject({
        kind: 'excel',
        sheet: 'People',
        sheets: ['People', 'Notes'],
        rows: 5,
      });
    });

    it('the extension must match the chosen source type → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(alice, id, await fixture('notes.txt', 'plain text')).expect(
        415,
      );
      expect(body.detail).toBe('A PDF source takes a .pdf file; "notes.txt" is not one.');
    });

    it('a path in the file name never reaches the file system', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'text_file' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        Buffer.from('hello\nworld\n'),
        '../../etc/passwd.txt',
      ).expect(200);
      expect(body.saved.file.original_name).toBe('passwd.txt');
      const files = await storedFiles(id);
      expect(files).toEqual([expect.stringMatching(/^[0-9a-f-]{36}\.txt$/)]);
      // Nothing was written next to the data folder.
      await expect(readdir(path.join(t.config.DATA_DIR, '..', 'etc'))).rejects.toThrow();
    });

    it('replacing the upload removes the old file; a new source type drops it', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      await upload(alice, id, await fixture('one.csv', SALES_CSV)).expect(200);
      const [first] = await storedFiles(id);
      await upload(alice, id, await fixture('two.csv', 'a,b\n1,2\n')).expect(200);
      const after = await storedFiles(id);
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(first);
      expect((await detail(alice, id)).config.file.original_name).toBe('two.csv');

      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      expect(await storedFiles(id)).toEqual([]);
      expect((await detail(alice, id)).config.file).toBeNull();
    });

    it('a file over the size limit → 413 naming the limit, and nothing is kept', async () => {
      const small = await createTestApp({ UPLOAD_MAX_BYTES: '2048' });
      try {
        const carol = await signUpAndLogIn(small.url, 'carol');
        const created = await small.http
          .post('/pipelines')
          .set(carol.auth)
          .send({ name: 'Big file', agent_type: 'rag' })
          .expect(201);
        const id = created.body.session_id as string;
        await small.http
          .post(WIZARD_ROUTES.rag.source)
          .set(carol.auth)
          .type('form')
          .send({ session_id: id, source_type: 'text_file' })
          .expect(200);
        const { body } = await small.http
          .post(WIZARD_ROUTES.rag.upload)
          .set(carol.auth)
          .field('session_id', id)
          .attach('file', Buffer.alloc(10_000, 'a'), { filename: 'big.txt' })
          .expect(413);
        expect(body).toEqual({ detail: 'The file must be 2 KB or smaller.' });
        expect(await readdir(path.join(small.config.DATA_DIR, 'incoming'))).toEqual([]);
      } finally {
        await small.close();
      }
    });
  });
});
