import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, signIn } from '../../features/testing/render';
import { notify } from '../../lib/notify';
import { ProfileView } from './profile-view';

const PROFILE = {
  full_name: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  phone_number: null,
  bio: null,
  profile_picture_url: null,
  created_at: '2025-02-03T10:00:00.000Z',
};

function renderProfile() {
  signIn();
  renderRoute('/dashboard', '/dashboard', <ProfileView onBack={() => {}} />);
}

describe('ProfileView', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("announces a failed load once, with the product's toast, and can try again", async () => {
    const error = vi.spyOn(notify, 'error');
    let down = true;
    mockFetch(() =>
      down ? { status: 500, json: { detail: 'Database unavailable.' } } : { json: PROFILE },
    );
    const user = userEvent.setup();
    renderProfile();

    const view = screen.getByRole('region', { name: 'Profile' });
    expect(await within(view).findByText('Failed to fetch profile info')).toBeInTheDocument();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('Error', 'Failed to fetch profile info');
    // The text in the view explains the empty view; it is not a second alert.
    expect(within(view).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(view).queryByRole('button', { name: 'Edit Profile' })).not.toBeInTheDocument();

    down = false;
    await user.click(within(view).getByRole('button', { name: 'Try again' }));
    expect(await within(view).findByText('ada@example.com')).toBeInTheDocument();
    expect(within(view).queryByText('Failed to fetch profile info')).not.toBeInTheDocument();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('moves focus into the editor, and back to Edit Profile when it closes', async () => {
    mockFetch(() => ({ json: PROFILE }));
    const user = userEvent.setup();
    renderProfile();

    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByRole('heading', { name: 'Edit Profile' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toHaveFocus();
  });
});
