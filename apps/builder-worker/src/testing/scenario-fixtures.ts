import type { TDatabaseSource, TUploadedFile } from '@agentloom/contracts';
import ExcelJS from 'exceljs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chunkText, type SourceChunk } from '../generator';

/**
 * The source files and stored-configuration pieces the project scenarios (project-scenarios.ts)
 * read: a CSV, a text, a PDF and a workbook, what the wizard stores of an upload or a database,
 * and the chunks a build would have made of them. Names a project must survive are here too.
 */

export const HOSTILE =
  'Robert"); DROP TABLE x;-- """ ${process.env} {{7*7}} `rm -rf` \n../../etc/passwd \\ \'\'\' ' +
  '\r\n\u2028 émoji 🤖';
export const HOSTILE_TABLE = 'Robert"); DROP TABLE x;--';
const NOW = '2026-11-21T10:00:00.000Z';

export const CSV = [
  'region,amount,note',
  'North,10.5,first sale of the year',
  'South,20,"refund requested, then cancelled"',
  'East,7.25,',
  'West,12,bulk order for the Oslo office',
].join('\n');

export const TEXT = [
  'Refund policy',
  '',
  'Refunds are paid back within five working days after the returned item arrives.',
  'Shipping to Norway takes two weeks by sea and three days by air.',
  '',
  'Support answers the phone from 9 to 5 on weekdays. '.repeat(30),
].join('\n');

async function writePdf(file: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of [
    'Refunds are paid back within five working days.',
    'Shipping to Norway takes two weeks by sea.',
  ]) {
    pdf.addPage([400, 200]).drawText(line, { x: 20, y: 150, size: 11, font });
  }
  await writeFile(file, await pdf.save());
}

async function writeXlsx(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sales');
  sheet.addRow(['region', 'amount', 'note']);
  sheet.addRow(['North', 10.5, 'first sale']);
  sheet.addRow(['South', 20, 'refund requested']);
  sheet.addRow(['East', 7.25, null]);
  workbook.addWorksheet('Notes').addRow(['not read']);
  await workbook.xlsx.writeFile(file);
}

export function uploaded(kind: 'pdf' | 'csv' | 'excel' | 'text_file', name: string): TUploadedFile {
  const summaries = {
    pdf: { kind: 'pdf' as const, pages: 2, characters: 90 },
    text_file: { kind: 'text_file' as const, lines: 6, characters: TEXT.length },
    csv: { kind: 'csv' as const, columns: ['region', 'amount', 'note'], rows: 4 },
    excel: {
      kind: 'excel' as const,
      sheet: 'Sales',
      sheets: ['Sales', 'Notes'],
      columns: ['region', 'amount', 'note'],
      rows: 3,
    },
  };
  return { original_name: name, size_bytes: 1000, summary: summaries[kind], uploaded_at: NOW };
}

export function database(type: TDatabaseSource['type'], table: string): TDatabaseSource {
  return {
    type,
    uri: `${type}://app:****@db.example.com/shop`,
    database: 'shop',
    table,
    columns: type === 'sqlite' ? null : [{ name: 'id', type: 'integer' }],
    approximate_rows: 3,
    checked_at: NOW,
  };
}

export const csvChunks: SourceChunk[] = CSV.split('\n')
  .slice(1)
  .map((line, index) => ({
    text: line.replace(/,/g, '; '),
    source: 'sales.csv',
    row: index + 1,
  }));
export const textChunks: SourceChunk[] = chunkText(TEXT, 800, 100).map((text) => ({
  text,
  source: 'policy.txt',
}));
export const orderChunks: SourceChunk[] = [
  { text: 'id: 1; item: lamp; status: shipped', source: 'orders', row: 1 },
  { text: 'id: 2; item: desk; status: refunded', source: 'orders', row: 2 },
];

/** The fixture files under `dir`: sales.csv, policy.txt, policy.pdf and sales.xlsx. */
export async function writeFixtureFiles(dir: string): Promise<void> {
  await mkdir(dir);
  await writeFile(path.join(dir, 'sales.csv'), CSV);
  await writeFile(path.join(dir, 'policy.txt'), TEXT);
  await writePdf(path.join(dir, 'policy.pdf'));
  await writeXlsx(path.join(dir, 'sales.xlsx'));
}

/**
 * The owner's curated answers some scenarios' builds captured (data/curated_answers.json). The
 * live check asks a paraphrase of the first and must get its answer word for word, with no call
 * to the model.
 */
export const CURATED_ANSWERS = [
  {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    question: 'How do I return a product I bought?',
    answer: 'Send it back within 30 days with the receipt; your refund follows within 5 days.',
  },
  {
    id: '9b2d4f1a-2c3e-4b5d-8e6f-7a8b9c0d1e2f',
    question: 'Who can I call about my invoice?',
    answer: 'Call accounts on +47 22 00 00 00, weekdays from 9 to 5.',
  },
];
