import { cellsOf, joinPassages, passageView } from './passage-view';

const BUILD = '11111111-1111-4111-8111-111111111111';

describe('what the passage viewer is sent', () => {
  it('writes a page once where its passages overlap, and says where the cited one lies', () => {
    const passages = [
      {
        id: 'a',
        source: 'guide.pdf',
        page: 2,
        text: 'The warranty lasts two years from the day of sale.',
      },
      {
        id: 'b',
        source: 'guide.pdf',
        page: 2,
        text: 'from the day of sale. Keep the receipt safe.',
      },
      { id: 'c', source: 'guide.pdf', page: 2, text: 'Returns: thirty days.' },
    ];
    const { text, highlight } = joinPassages(passages, 'b');
    expect(text).toBe(
      'The warranty lasts two years from the day of sale. Keep the receipt safe.\n\nReturns: thirty days.',
    );
    expect(text.slice(highlight.start, highlight.end)).toBe(passages[1]!.text);
    const last = joinPassages(passages, 'c');
    expect(text.slice(last.highlight.start, last.highlight.end)).toBe('Returns: thirty days.');
    const view = passageView(BUILD, { chunk: passages[1]!, neighbours: passages });
    expect(view).toMatchObject({ kind: 'page', citation: 'guide.pdf, page 2', context: text });
  });

  it('reads a row’s cells from its "column: value" lines, a value over lines included', () => {
    expect(cellsOf('region: Porto\nnote: first line\nsecond line\nunits: 4')).toEqual([
      { column: 'region', value: 'Porto' },
      { column: 'note', value: 'first line\nsecond line' },
      { column: 'units', value: '4' },
    ]);
    expect(cellsOf('just a sentence')).toBeNull();
    const row = { id: 'r', source: 'orders.csv', row: 1, text: 'region: Porto\nunits: 4' };
    const other = { id: 's', source: 'orders.csv', row: 2, text: 'region: Faro\nsize: L' };
    const view = passageView(BUILD, { chunk: row, neighbours: [row, other] });
    expect(view.columns).toEqual(['region', 'units', 'size']);
    expect(view.neighbours.map((n) => n.cited)).toEqual([true, false]);
    expect(view.highlight).toBeNull();
  });
});
