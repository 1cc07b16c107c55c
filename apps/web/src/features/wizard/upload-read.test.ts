import { describe, expect, it } from 'vitest';
import { uploadReadLine } from './upload-read';

describe('what an upload read, in words', () => {
  it('says rows and columns of a table, pages of a PDF, lines of a text', () => {
    const columns = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(uploadReadLine({ kind: 'csv', columns, rows: 500 })).toBe('Read 500 rows, 6 columns');
    expect(uploadReadLine({ kind: 'csv', columns: ['a'], rows: 1 })).toBe('Read 1 row, 1 column');
    expect(
      uploadReadLine({ kind: 'excel', sheet: 'Sales', sheets: ['Sales'], columns, rows: 12_000 }),
    ).toBe('Read 12,000 rows, 6 columns from sheet “Sales”');
    expect(uploadReadLine({ kind: 'pdf', pages: 12, characters: 9000 })).toBe('Read 12 pages');
    expect(uploadReadLine({ kind: 'text_file', lines: 40, characters: 900 })).toBe('Read 40 lines');
  });
});
