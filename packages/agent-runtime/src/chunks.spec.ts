import { citationOf, parseChunksJsonl } from './chunks';

describe('parseChunksJsonl', () => {
  it('reads the builder’s lines and skips blank ones', () => {
    const content = [
      JSON.stringify({ id: 'c1', text: 'name: Ada\nage: 36', source: 'people.csv', row: 1 }),
      '',
      JSON.stringify({ id: 'c2', text: 'Hello page one', source: 'report.pdf', page: 1 }),
      '   ',
      JSON.stringify({ id: 'c3', text: 'id: 42', source: 'customers', ref: 'id=42' }),
      '',
    ].join('\n');
    expect(parseChunksJsonl(content)).toEqual([
      { id: 'c1', text: 'name: Ada\nage: 36', source: 'people.csv', row: 1 },
      { id: 'c2', text: 'Hello page one', source: 'report.pdf', page: 1 },
      { id: 'c3', text: 'id: 42', source: 'customers', ref: 'id=42' },
    ]);
  });

  it('names the line that is not JSON', () => {
    const content = `${JSON.stringify({ id: 'a', text: 'x', source: 's' })}\n\n{"id": "b", "text": `;
    expect(() => parseChunksJsonl(content)).toThrow(/^chunks\.jsonl line 3 is not valid JSON: /);
  });

  it('names the line and the field that is wrong', () => {
    expect(() => parseChunksJsonl('{"text": "x", "source": "s"}')).toThrow(
      'chunks.jsonl line 1: "id" must be a non-empty string.',
    );
    expect(() => parseChunksJsonl('{"id": "a", "source": "s"}')).toThrow(
      'chunks.jsonl line 1: "text" must be a string.',
    );
    expect(() => parseChunksJsonl('\n{"id": "a", "text": "x", "source": "s", "row": 1.5}')).toThrow(
      'chunks.jsonl line 2: "row" must be a whole number.',
    );
    expect(() => parseChunksJsonl('["a"]')).toThrow(
      'chunks.jsonl line 1: expected an object like {"id", "text", "source"}.',
    );
  });
});

describe('citationOf', () => {
  it('cites rows, pages, database keys and whole files', () => {
    // Data row 12 is the spreadsheet's row 13: its header is row 1 (issue 30).
    expect(citationOf({ id: '1', text: '', source: 'sales.csv', row: 12 })).toBe(
      'sales.csv, row 13',
    );
    expect(citationOf({ id: '2', text: '', source: 'report.pdf', page: 3 })).toBe(
      'report.pdf, page 3',
    );
    expect(citationOf({ id: '3', text: '', source: 'customers', ref: 'id=42' })).toBe(
      'customers, id=42',
    );
    expect(citationOf({ id: '4', text: '', source: 'notes.txt' })).toBe('notes.txt');
  });
});
