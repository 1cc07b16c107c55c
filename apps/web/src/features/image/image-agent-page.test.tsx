import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, mockFetch, renderRoute, signIn } from '../testing/render';
import { ImageAgentPage } from './image-agent-page';

function renderPage() {
  signIn();
  return renderRoute('/build/image', '/build/image', <ImageAgentPage />);
}

describe('image agent screen', () => {
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
});
