import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch, renderRoute, signIn } from '../testing/render';
import { ImageAgentPage } from './image-agent-page';
import { PREVIEW_LOAD_TIMEOUT_MS } from './launch-url';

const APP_URL = 'http://localhost:8501';

function renderPage() {
  signIn();
  return renderRoute('/build/image', '/build/image', <ImageAgentPage />);
}

describe('image agent screen', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('launches, shows the ready state, and previews after half a second', async () => {
    const answer = deferred<{ json: unknown }>();
    const { calls } = mockFetch(() => answer.promise);
    const user = userEvent.setup();
    renderPage();
    expect(screen.getByRole('heading', { name: 'AI Image Generation Agent' })).toBeInTheDocument();
    expect(screen.getByText('Set a Gemini API key')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    expect(await screen.findByRole('button', { name: 'Launching...' })).toBeDisabled();
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/img/launch-streamlit-app' });

    answer.resolve({ json: { url: 'http://localhost:8501' } });
    expect(await screen.findByText('Image Agent Ready!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open in New Tab' })).toHaveAttribute(
      'href',
      'http://localhost:8501',
    );
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );

    await user.click(screen.getByRole('button', { name: 'Preview Agent' }));
    expect(screen.queryByTitle('Image Agent Preview')).not.toBeInTheDocument();
    const frame = await screen.findByTitle('Image Agent Preview');
    expect(frame).toHaveAttribute('src', 'http://localhost:8501');
    expect(frame.getAttribute('sandbox')).toContain('allow-scripts');
    await user.click(screen.getByRole('button', { name: 'Back to Generator' }));
    expect(screen.getByText('Image Agent Ready!')).toBeInTheDocument();
  });

  it('rejects a URL that is not http or https', async () => {
    mockFetch(() => ({ json: { url: 'javascript:alert(1)' } }));
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    expect(await screen.findByText('Invalid URL received from server.')).toBeInTheDocument();
    expect(screen.queryByText('Image Agent Ready!')).not.toBeInTheDocument();
  });

  it('says the address is not available when the launch answers without one', async () => {
    mockFetch(() => ({ json: {} }));
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    expect(await screen.findByText('Streamlit URL not available')).toBeInTheDocument();
    expect(screen.queryByText('Image Agent Ready!')).not.toBeInTheDocument();
  });

  it('says the service could not start when the launch fails', async () => {
    mockFetch(() => ({ status: 404, json: { detail: 'Not found.' } }));
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    expect(
      await screen.findByText('Could not start the Streamlit service. Check server logs.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Launch Image Generator' })).toBeEnabled();
  });

  it('moves focus to the heading of each new state', async () => {
    mockFetch(() => ({ json: { url: APP_URL } }));
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    expect(await screen.findByRole('heading', { name: 'Image Agent Ready!' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Preview Agent' }));
    expect(screen.getByRole('heading', { name: 'Image Agent Preview' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Back to Generator' }));
    expect(screen.getByRole('heading', { name: 'Image Agent Ready!' })).toHaveFocus();
  });

  it("says 'Preview failed to load.' when the app's server cannot be reached", async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/img/launch-streamlit-app') return { json: { url: APP_URL } };
      // What fetch does on a refused connection.
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    await user.click(await screen.findByRole('button', { name: 'Preview Agent' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Preview failed to load.');
    expect(screen.queryByTitle('Image Agent Preview')).not.toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/img/launch-streamlit-app', '/']);
    // Going back and previewing again checks the server again.
    await user.click(screen.getByRole('button', { name: 'Back to Generator' }));
    await user.click(screen.getByRole('button', { name: 'Preview Agent' }));
    expect(await screen.findByText('Preview failed to load.')).toBeInTheDocument();
    expect(calls).toHaveLength(3);
  });

  it("says 'Preview failed to load.' when the frame never finishes loading", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch(() => ({ json: { url: APP_URL } }));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    await user.click(await screen.findByRole('button', { name: 'Preview Agent' }));
    expect(await screen.findByTitle('Image Agent Preview')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_LOAD_TIMEOUT_MS));
    expect(screen.getByRole('alert')).toHaveTextContent('Preview failed to load.');
    expect(screen.queryByTitle('Image Agent Preview')).not.toBeInTheDocument();
  });

  it('keeps a frame that has loaded, however long the preview stays open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch(() => ({ json: { url: APP_URL } }));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Launch Image Generator' }));
    await user.click(await screen.findByRole('button', { name: 'Preview Agent' }));
    fireEvent.load(await screen.findByTitle('Image Agent Preview'));

    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_LOAD_TIMEOUT_MS * 2));
    expect(screen.getByTitle('Image Agent Preview')).toBeInTheDocument();
    expect(screen.queryByText('Preview failed to load.')).not.toBeInTheDocument();
  });
});
