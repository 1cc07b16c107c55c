import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { renderWithProviders } from '../../components/test-utils';
import { notify } from '../../lib/notify';
import { KeysView } from './keys-view';

const KEYS = [
  {
    id: '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0001',
    provider: 'openai',
    name: 'Team key',
    key: 'sk-proj-...WXYZ',
    created_at: '2025-02-03T10:00:00.000Z',
  },
  {
    id: '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0002',
    provider: 'groq',
    name: null,
    key: '********',
    created_at: 'yesterday-ish',
  },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('KeysView (SPEC §2, §3, §5)', () => {
  let fetchSpy: MockInstance<typeof fetch>;
  beforeEach(() => {
    fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/apikeys')) return Promise.resolve(json(KEYS));
      if (url.endsWith('/secret'))
        return Promise.resolve(json({ key: 'sk-proj-abcdefghijklmnopWXYZ' }));
      return Promise.resolve(json({ detail: 'unexpected' }, 500));
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists keys masked with an ellipsis, and Unknown for a date that does not parse', async () => {
    renderWithProviders(<KeysView onBack={() => {}} />);
    const values = await screen.findAllByTestId('api-key-value');
    expect(values.map((value) => value.textContent)).toEqual(['sk-proj-…WXYZ', '********']);
    expect(screen.getByText('Added Feb 3, 2025')).toBeInTheDocument();
    expect(screen.getByText('Added Unknown')).toBeInTheDocument();
  });

  it('reveals a key by fetching its secret, and masks it again', async () => {
    renderWithProviders(<KeysView onBack={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reveal Team key (OpenAI) key' }));
    const [first] = screen.getAllByTestId('api-key-value');
    await vi.waitFor(() => expect(first).toHaveTextContent('sk-proj-abcdefghijklmnopWXYZ'));
    fireEvent.click(screen.getByRole('button', { name: 'Hide Team key (OpenAI) key' }));
    expect(first).toHaveTextContent('sk-proj-…WXYZ');
  });

  it("says 'Missing Info' and sends nothing when provider or key is missing", async () => {
    const error = vi.spyOn(notify, 'error');
    renderWithProviders(<KeysView onBack={() => {}} />);
    await screen.findAllByTestId('api-key-value');
    fireEvent.click(screen.getByRole('button', { name: 'Add API Key' }));
    fireEvent.change(screen.getByLabelText('API Key'), {
      target: { value: 'sk-some-long-key-123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Key' }));
    expect(error).toHaveBeenCalledWith('Missing Info', 'Please fill out all fields');
    expect(fetchSpy.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    // The form toggles closed again.
    fireEvent.click(screen.getByRole('button', { name: 'Close Form' }));
    expect(screen.queryByRole('button', { name: 'Save Key' })).toBeNull();
  });
});
