import { wizardPaths } from '@agentloom/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderRoute } from '../testing/render';
import { SourceSample } from './source-sample';

const SESSION = '0b5c7a52-8a31-4c53-9a7f-4c1f3a0e9b11';
const FILE = {
  original_name: 'sales.csv',
  size_bytes: 80,
  summary: { kind: 'csv' as const, columns: ['region', 'amount'], rows: 2 },
  uploaded_at: '2025-01-01T00:00:00.000Z',
};

describe('SourceSample', () => {
  it('shows the counts and first rows the gateway read back from the upload', async () => {
    const { calls } = mockFetch(() => ({
      json: {
        kind: 'csv',
        counts: '2 rows · 2 columns',
        columns: ['region', 'amount'],
        rows: [
          ['North', '120'],
          ['South', '80'],
        ],
        passages: [],
      },
    }));
    renderRoute('/', '/', <SourceSample sessionId={SESSION} file={FILE} />);
    const data = await screen.findByRole('region', { name: 'Your data' });
    expect(data).toHaveTextContent('sales.csv · 2 rows · 2 columns');
    const table = within(data).getByRole('table', { name: 'First rows of sales.csv' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: 'South' })).toBeInTheDocument();
    expect(calls[0]?.path).toBe(wizardPaths.sourceSample(SESSION));
  });

  it('shows a document’s first passages', async () => {
    mockFetch(() => ({
      json: {
        kind: 'text_file',
        counts: '3 lines · 24 characters',
        columns: [],
        rows: [],
        passages: ['First note. Second note.'],
      },
    }));
    const notes = { ...FILE, original_name: 'notes.txt' };
    renderRoute('/', '/', <SourceSample sessionId={SESSION} file={notes} />);
    expect(await screen.findByText('First note. Second note.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
