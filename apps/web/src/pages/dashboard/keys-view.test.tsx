import { WIZARD_ROUTES } from '@agentloom/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { renderWithProviders } from '../../components/test-utils';
import { deferred, mockFetch, renderRoute, signIn } from '../../features/testing/render';
import { notify } from '../../lib/notify';
import { KeysView } from './keys-view';

const FIRST_ID = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0001';
const SECOND_ID = '0b6f6c39-7a4b-4b7e-9d55-6f1f1f8a0002';

const KEYS = [
  {
    id: FIRST_ID,
    provider: 'openai',
    name: 'Team key',
    key: 'sk-proj-...WXYZ',
    created_at: '2025-02-03T10:00:00.000Z',
  },
  {
    id: SECOND_ID,
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

describe('KeysView', () => {
  let fetchSpy: MockInstance<typeof fetch>;
  beforeEach(() => {
    fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/apikeys')) return Promise.resolve(json(KEYS));
      if (url.endsWith('/secret'))
        return Promise.resolve(json({ key: 'sk-proj-abcdefghijklmnopWXYZ' }));
      if (url.endsWith(WIZARD_ROUTES.keyCheck)) {
        return Promise.resolve(
          json({ ok: false, rejected: true, models: [], detail: 'Groq rejected this key.' }),
        );
      }
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

  it('checks a vault key with its provider and shows the verdict beside it', async () => {
    renderWithProviders(<KeysView onBack={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check with Groq' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Groq rejected this key.');
    const sent = fetchSpy.mock.calls.find(
      ([input]) => typeof input === 'string' && input.endsWith(WIZARD_ROUTES.keyCheck),
    );
    expect(JSON.parse(sent?.[1]?.body as string)).toEqual({
      provider: 'groq',
      api_key_id: SECOND_ID,
    });
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

describe('KeysView failures, concurrent copies and focus', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  function renderKeys() {
    signIn();
    renderRoute('/dashboard', '/dashboard', <KeysView onBack={() => {}} />);
    return screen.getByRole('region', { name: 'API Keys' });
  }

  it("shows 'Failed to load API keys' with Retry instead of the empty state", async () => {
    const error = vi.spyOn(notify, 'error');
    let down = true;
    mockFetch(() => (down ? { status: 503 } : { json: KEYS }));
    const user = userEvent.setup();
    const view = renderKeys();

    const alert = await within(view).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load API keys');
    expect(screen.queryByText('No API keys yet')).not.toBeInTheDocument();
    // One channel: the alert, not a toast as well.
    expect(error).not.toHaveBeenCalled();
    expect(screen.getAllByText('Failed to load API keys')).toHaveLength(1);

    down = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('api-key-value')).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("keeps each key's copy spinner until that key's own copy is done", async () => {
    const secrets = new Map([
      [FIRST_ID, deferred<{ json: unknown }>()],
      [SECOND_ID, deferred<{ json: unknown }>()],
    ]);
    mockFetch((call) => {
      const id = /^\/apikeys\/([^/]+)\/secret$/.exec(call.path)?.[1];
      const held = id && secrets.get(id);
      return held ? held.promise : { json: KEYS };
    });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderKeys();
    const copyFirst = await screen.findByRole('button', { name: 'Copy Team key (OpenAI) key' });
    const copySecond = screen.getByRole('button', { name: 'Copy Groq key' });

    await user.click(copyFirst);
    await user.click(copySecond);
    expect(copyFirst).toHaveAttribute('aria-busy', 'true');
    expect(copySecond).toHaveAttribute('aria-busy', 'true');

    secrets.get(SECOND_ID)?.resolve({ json: { key: 'gsk_second_secret_0123456789' } });
    await vi.waitFor(() => expect(copySecond).not.toHaveAttribute('aria-busy'));
    expect(copyFirst).toHaveAttribute('aria-busy', 'true');

    secrets.get(FIRST_ID)?.resolve({ json: { key: 'sk-proj-first-secret-0123456789' } });
    await vi.waitFor(() => expect(copyFirst).not.toHaveAttribute('aria-busy'));
    expect(writeText.mock.calls).toEqual([
      ['gsk_second_secret_0123456789'],
      ['sk-proj-first-secret-0123456789'],
    ]);
    expect(await screen.findAllByText('API key copied to clipboard')).toHaveLength(2);
  });

  it('names the reveal toggle by what it does, without a pressed state as well', async () => {
    mockFetch((call) =>
      call.path.endsWith('/secret')
        ? { json: { key: 'sk-proj-abcdefghijklmnopWXYZ' } }
        : { json: KEYS },
    );
    const user = userEvent.setup();
    renderKeys();
    const toggle = await screen.findByRole('button', { name: 'Reveal Team key (OpenAI) key' });
    expect(toggle).not.toHaveAttribute('aria-pressed');
    await user.click(toggle);
    await vi.waitFor(() => expect(toggle).toHaveAccessibleName('Hide Team key (OpenAI) key'));
    expect(toggle).not.toHaveAttribute('aria-pressed');
  });

  it('returns focus to the Add API Key toggle when the form closes', async () => {
    const { calls } = mockFetch((call) =>
      call.path === WIZARD_ROUTES.keyCheck
        ? { json: { ok: true, rejected: false, models: ['gpt-4o'], detail: 'Connected.' } }
        : call.method === 'POST'
          ? { status: 201, json: KEYS[0] }
          : { json: KEYS },
    );
    const user = userEvent.setup();
    renderKeys();
    await screen.findAllByTestId('api-key-value');

    await user.click(screen.getByRole('button', { name: 'Add API Key' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Add API Key' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Add API Key' }));
    await user.selectOptions(screen.getByLabelText('Provider'), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'sk-some-long-key-123456');
    await user.click(screen.getByRole('button', { name: 'Save Key' }));
    expect(await screen.findByRole('button', { name: 'Add API Key' })).toHaveFocus();
    // Checked with the provider, then stored once.
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      WIZARD_ROUTES.keyCheck,
      '/apikeys',
    ]);
  });

  it('does not store a key the provider refuses, and says why in the form', async () => {
    const { calls } = mockFetch((call) =>
      call.path === WIZARD_ROUTES.keyCheck
        ? {
            json: {
              ok: false,
              rejected: true,
              models: [],
              detail: 'OpenAI rejected this key (401).',
            },
          }
        : { json: KEYS },
    );
    const user = userEvent.setup();
    renderKeys();
    await screen.findAllByTestId('api-key-value');
    await user.click(screen.getByRole('button', { name: 'Add API Key' }));
    await user.selectOptions(screen.getByLabelText('Provider'), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'sk-revoked-key-1234567890');
    await user.click(screen.getByRole('button', { name: 'Save Key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'OpenAI rejected this key (401). The key was not saved',
    );
    expect(calls.some((call) => call.method === 'POST' && call.path === '/apikeys')).toBe(false);
  });

  it('names the agents a deletion affects and what happens to the published one', async () => {
    mockFetch((call) =>
      call.path === `/apikeys/${FIRST_ID}/usage`
        ? {
            json: {
              agents: [
                { id: FIRST_ID, name: 'Rose bakery helper', status: 'Built', published: true },
                { id: SECOND_ID, name: 'Orders analyst', status: 'Draft', published: false },
              ],
            },
          }
        : { json: KEYS },
    );
    const user = userEvent.setup();
    renderKeys();
    await user.click(await screen.findByRole('button', { name: /Delete Team key/ }));
    const dialog = await screen.findByRole('dialog');
    await vi.waitFor(() =>
      expect(dialog).toHaveTextContent('Used by “Rose bakery helper”, “Orders analyst”.'),
    );
    expect(dialog).toHaveTextContent(
      '“Rose bakery helper” is published: visitors get answers only until the agent is next loaded',
    );
  });
});
