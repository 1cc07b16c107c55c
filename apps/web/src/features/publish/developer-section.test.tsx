import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicationFixture } from '../testing/knowledge';
import { mockFetch, renderRoute } from '../testing/render';
import { DeveloperSection } from './developer-section';

const AGENT = '2f7e1c3a-9b8d-4e6f-a1b2-c3d4e5f6a7b8';
const SECRET = 'al_fresh0123456789abcdefghijklmnopqrstuvwx';

afterEach(() => vi.restoreAllMocks());

describe('the developer part of a published agent', () => {
  it('is folded, and a key made in it is filled into the code examples and the MCP configuration', async () => {
    mockFetch((call) => {
      if (call.method === 'POST' && call.path === `/agents/${AGENT}/keys`) {
        return {
          status: 201,
          json: {
            id: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
            name: null,
            key: 'al_…uvwx',
            rate_limit_per_minute: 60,
            request_count: 0,
            last_used_at: null,
            revoked_at: null,
            created_at: '2026-11-28T12:00:00.000Z',
            secret: SECRET,
          },
        };
      }
      return { json: [] };
    });
    const state = publicationFixture({ published: true });
    renderRoute(
      '/panel',
      '/panel',
      <DeveloperSection state={state} agentId={AGENT} agentName="Parts bot" />,
    );
    const summary = screen.getByText('For developers: API, MCP server and access keys');
    expect(summary.closest('details')).not.toHaveAttribute('open');
    const user = userEvent.setup();
    await user.click(summary);
    expect(screen.getByRole('tabpanel')).toHaveTextContent('al_YOUR_ACCESS_KEY');

    await user.click(screen.getByRole('button', { name: 'New access key' }));
    expect(await screen.findByTestId('new-access-key')).toHaveTextContent(SECRET);
    expect(screen.getByRole('tabpanel')).toHaveTextContent(SECRET);
    expect(screen.getByRole('tabpanel')).not.toHaveTextContent('al_YOUR_ACCESS_KEY');
    expect(screen.getByLabelText('MCP client configuration')).toHaveTextContent(`Bearer ${SECRET}`);
  });
});
