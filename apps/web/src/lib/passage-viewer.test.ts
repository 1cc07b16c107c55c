import { ZPassageView, type TPassageView } from '@agentloom/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import commonJs from '../../../gateway/preview-assets/common.js?raw';

/**
 * The passage viewer of the gateway's served pages — the share page, the widget frame and the
 * preview all load common.js — run in this app's DOM test runner (the gateway's has no DOM): a
 * retrieved passage's citation is a button that opens a dialog showing the passage as the
 * gateway's passage routes send it; Close returns to the citation.
 */

interface Agentloom {
  sourceList(
    items: object[],
    options: { open?: boolean; openPassage?: (id: string) => Promise<TPassageView> },
  ): HTMLElement;
}

const BUILD = '11111111-1111-4111-8111-111111111111';

/** A passage as the gateway sends it, checked against the contract. */
function view(fields: Partial<TPassageView> & Pick<TPassageView, 'id' | 'kind' | 'text'>) {
  return ZPassageView.parse({
    build_id: BUILD,
    citation: fields.id,
    source: 'orders.csv',
    row: null,
    page: null,
    ref: null,
    url: null,
    section: null,
    columns: [],
    neighbours: [],
    context: null,
    highlight: null,
    ...fields,
  });
}

const rowOf = (row: number, region: string, cited = false) => ({
  id: `chunk-00000${row}`,
  citation: `orders.csv, row ${row + 1}`,
  text: `region: ${region}`,
  row,
  page: null,
  cells: [{ column: 'region', value: region }],
  cited,
});

let agentloom: Agentloom;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeAll(() => {
  // The served pages' script, run in the page's global scope as a <script> runs it.
  window.eval(commonJs);
  agentloom = (window as unknown as { Agentloom: Agentloom }).Agentloom;
});
afterEach(() => document.body.replaceChildren());

describe('the passage viewer of the share page, widget and preview', () => {
  it('opens a cited row among its neighbours, under the column names, and closes back to it', async () => {
    const asked: string[] = [];
    const list = agentloom.sourceList(
      [
        { id: 'chunk-000002', citation: 'orders.csv, row 3', snippet: 'region: Lisbon' },
        { citation: 'Answer written by the owner', snippet: 'Where?', curated: true },
      ],
      {
        open: true,
        openPassage: (id) => {
          asked.push(id);
          return Promise.resolve(
            view({
              id,
              kind: 'row',
              citation: 'orders.csv, row 3',
              text: 'region: Lisbon',
              row: 2,
              columns: ['region'],
              neighbours: [rowOf(1, 'Porto'), rowOf(2, 'Lisbon', true), rowOf(3, 'Braga')],
            }),
          );
        },
      },
    );
    document.body.append(list);
    const buttons = [...list.querySelectorAll<HTMLButtonElement>('button.citation')];
    // Only the retrieved passage opens; the owner's written answer is no passage.
    expect(buttons.map((button) => button.textContent)).toEqual(['orders.csv, row 3']);
    buttons[0]!.click();
    await settle();
    expect(asked).toEqual(['chunk-000002']);
    const dialog = document.querySelector('dialog.passage')!;
    expect(dialog.getAttribute('aria-labelledby')).toBe('passage-title');
    expect(dialog.querySelector('h2')!.textContent).toBe('orders.csv, row 3');
    const heads = [...dialog.querySelectorAll('thead th')].map((cell) => cell.textContent);
    expect(heads).toEqual(['Row', 'region']);
    const shown = [...dialog.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect(shown).toEqual([
      ['2', 'Porto'],
      ['3', 'Lisbon'],
      ['4', 'Braga'],
    ]);
    const cited = [...dialog.querySelectorAll('tbody tr[aria-current="true"]')];
    expect(cited.map((row) => row.querySelector('td')!.textContent)).toEqual(['Lisbon']);
    expect(document.activeElement?.textContent).toBe('Close');
    dialog.querySelector<HTMLButtonElement>('button.close')!.click();
    await settle();
    expect(document.querySelector('dialog.passage')).toBeNull();
    expect(document.activeElement).toBe(buttons[0]);
  });

  it('marks a passage in its page’s text, links a web page, and says why one cannot open', async () => {
    const context = 'The warranty lasts two years from the day of sale. Keep the receipt safe.';
    const views: Record<string, TPassageView> = {
      pdf: view({
        id: 'pdf',
        kind: 'page',
        text: 'from the day of sale. Keep the receipt safe.',
        page: 2,
        context,
        highlight: { start: 29, end: context.length },
      }),
      web: view({
        id: 'web',
        kind: 'web',
        text: 'Returns take 30 days.',
        url: 'https://shop.example.com/help',
        context: 'Returns take 30 days.',
        highlight: { start: 0, end: 21 },
      }),
      script: view({ id: 'script', kind: 'web', text: 'x', url: 'javascript:alert(1)' }),
    };
    const list = agentloom.sourceList(
      ['pdf', 'web', 'script', 'gone'].map((id) => ({ id, citation: id, snippet: '' })),
      {
        openPassage: (id) =>
          views[id]
            ? Promise.resolve(views[id])
            : Promise.reject(new Error('This passage is not in the agent’s data.')),
      },
    );
    document.body.append(list);
    const opened = async (index: number) => {
      list.querySelectorAll<HTMLButtonElement>('button.citation')[index]!.click();
      await settle();
      const dialog = document.querySelector('dialog.passage')!;
      dialog.querySelector<HTMLButtonElement>('button.close')!.click();
      return dialog;
    };
    const page = await opened(0);
    expect(page.querySelector('.passage-text')!.textContent).toBe(context);
    expect(page.querySelector('mark')!.textContent).toBe(
      'from the day of sale. Keep the receipt safe.',
    );
    // Escape closes the viewer too, and the citation has the focus again.
    const citations = list.querySelectorAll<HTMLButtonElement>('button.citation');
    citations[0]!.click();
    await settle();
    document
      .querySelector('dialog.passage')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(document.querySelector('dialog.passage')).toBeNull();
    expect(document.activeElement).toBe(citations[0]);
    const web = await opened(1);
    const link = web.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://shop.example.com/help');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(web.querySelector('mark')!.textContent).toBe('Returns take 30 days.');
    // Only web addresses become links.
    expect((await opened(2)).querySelector('a')).toBeNull();
    expect((await opened(3)).querySelector('.error')!.textContent).toBe(
      'This passage is not in the agent’s data.',
    );
  });
});
