import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspectUpload } from './inspect-upload';
import { readExcelRecords } from './excel';
import { dir, fixture, limits, useFixtureDir } from './inspect-upload.spec-helper';
import { deflated, sheetXml, workbookParts, zip } from './testing/fixtures';
import { writeWithPython } from './testing/python-workbooks';

useFixtureDir();

const STATIONS = [
  { station: 'North', riders: '120' },
  { station: 'South', riders: '80' },
  { station: 'Harbour', riders: '45' },
];

async function records(file: string, sheet?: string): Promise<Record<string, string>[]> {
  const found: Record<string, string>[] = [];
  for await (const record of readExcelRecords(file, limits.xlsxMaxUncompressedBytes, sheet)) {
    found.push(record);
  }
  return found;
}

/**
 * Issue 43, item 1: openpyxl (and pandas through it) name their parts by absolute part names
 * (`Target="/xl/worksheets/sheet1.xml"`), which the Open Packaging Conventions allow; the upload
 * read `"columns": []` and the build failed with "no sheet named". Real files, written by the
 * real libraries in a virtual environment the test makes (pip, from PyPI) — no binary fixture.
 */
describe('workbooks written by Python libraries', () => {
  beforeAll(() => {
    writeWithPython(
      dir,
      `
import openpyxl, pandas as pd
rows = [('North', 120), ('South', 80), ('Harbour', 45)]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = 'Stations'
ws.append(['station', 'riders'])
for row in rows: ws.append(row)
wb.create_sheet('Notes').append(['note'])
wb.save('openpyxl.xlsx')
frame = pd.DataFrame(rows, columns=['station', 'riders'])
with pd.ExcelWriter('pandas-openpyxl.xlsx', engine='openpyxl') as writer:
    pd.DataFrame({'kept': ['first tab']}).to_excel(writer, sheet_name='Cover', index=False)
    frame.to_excel(writer, sheet_name='Stations', index=False)
with pd.ExcelWriter('pandas-xlsxwriter.xlsx', engine='xlsxwriter') as writer:
    frame.to_excel(writer, sheet_name='Stations', index=False)
`,
    );
  }, 300_000);

  it('reads a workbook openpyxl wrote: its tabs, columns and rows', async () => {
    const file = path.join(dir, 'openpyxl.xlsx');
    await expect(inspectUpload(file, 'excel', limits)).resolves.toEqual({
      kind: 'excel',
      sheet: 'Stations',
      sheets: ['Stations', 'Notes'],
      columns: ['station', 'riders'],
      rows: 3,
    });
    await expect(records(file)).resolves.toEqual(STATIONS);
    await expect(records(file, 'Notes')).resolves.toEqual([]);
  });

  it('reads a workbook pandas wrote through openpyxl, a named tab that is not the first', async () => {
    const file = path.join(dir, 'pandas-openpyxl.xlsx');
    await expect(inspectUpload(file, 'excel', limits)).resolves.toMatchObject({
      sheet: 'Cover',
      sheets: ['Cover', 'Stations'],
      columns: ['kept'],
      rows: 1,
    });
    await expect(records(file, 'Stations')).resolves.toEqual(STATIONS);
  });

  it('reads a workbook pandas wrote through XlsxWriter (relative names, shared strings)', async () => {
    const file = path.join(dir, 'pandas-xlsxwriter.xlsx');
    await expect(inspectUpload(file, 'excel', limits)).resolves.toMatchObject({
      sheets: ['Stations'],
      columns: ['station', 'riders'],
      rows: 3,
    });
    await expect(records(file)).resolves.toEqual(STATIONS);
  });
});

/** Debian's LibreOffice Calc (.ci/run installs it); a machine without it skips, CI never does. */
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((bin) => existsSync(bin));
const withLibreOffice = SOFFICE || process.env.CI ? it : it.skip;

describe('a workbook LibreOffice Calc wrote (issue 43, item 1)', () => {
  withLibreOffice(
    "reads its tab, columns and rows (relative part names, shared strings, Calc's own parts)",
    async () => {
      writeFileSync(
        path.join(dir, 'Stations.csv'),
        ['station,riders', ...STATIONS.map((row) => `${row.station},${row.riders}`)].join('\n'),
      );
      // Converted as a person's "Save as .xlsx" does it, with a profile of its own.
      execFileSync(
        SOFFICE ?? 'soffice',
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=file://${path.join(dir, 'libreoffice-profile')}`,
          '--convert-to',
          'xlsx',
          '--outdir',
          dir,
          path.join(dir, 'Stations.csv'),
        ],
        { stdio: 'ignore', timeout: 120_000 },
      );
      const file = path.join(dir, 'Stations.xlsx');
      await expect(inspectUpload(file, 'excel', limits)).resolves.toEqual({
        kind: 'excel',
        sheet: 'Stations',
        sheets: ['Stations'],
        columns: ['station', 'riders'],
        rows: 3,
      });
      await expect(records(file)).resolves.toEqual(STATIONS);
    },
    180_000,
  );
});

describe('worksheet part names the relationships choose', () => {
  const relationships = (targets: string[]) =>
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
      .map(
        (target, i) =>
          `<Relationship Target='${target}' Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>`,
      )
      .join('')}</Relationships>`;

  it.each([
    ['absolute names', ['/xl/worksheets/sheet2.xml', '/xl/worksheets/sheet1.xml']],
    ['names of their own, one in another folder', ['sheets/first.xml', '../xl/data/b%20c.xml']],
  ])('follows %s to each tab', async (_what, targets) => {
    const names = targets.map((target) =>
      path.posix.normalize(
        target.startsWith('/') ? target.slice(1) : `xl/${decodeURIComponent(target)}`,
      ),
    );
    const parts = workbookParts(
      [
        { name: 'First', file: 1 },
        { name: 'Second', file: 2 },
      ],
      [deflated(names[0]!, sheetXml(4)), deflated(names[1]!, sheetXml(2))],
    ).map((entry) =>
      entry.name === 'xl/_rels/workbook.xml.rels'
        ? deflated(entry.name, relationships(targets))
        : entry,
    );
    const file = await fixture('targets.xlsx', zip(parts));
    await expect(inspectUpload(file, 'excel', limits)).resolves.toMatchObject({
      sheet: 'First',
      sheets: ['First', 'Second'],
      rows: 3,
    });
    await expect(records(file, 'Second')).resolves.toHaveLength(1);
  });
});
