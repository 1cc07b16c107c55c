import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, textOf } from '../features/testing/render';
import { ResetPasswordPage } from './reset-password-page';
import { dismissAllToasts, expectToast, failures } from './toast-expectations';

function reset(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('ResetPasswordPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    dismissAllToasts();
  });

  it("says 'Invalid Link' / 'Token missing' without a token, and sends nothing", async () => {
    const { calls } = mockFetch();
    renderRoute('/reset-password', '/reset-password', <ResetPasswordPage />);
    reset('new-password-1', 'new-password-1');
    await expectToast('Invalid Link', 'Token missing', 'error');
    expect(calls).toEqual([]);
  });

  it("says 'Error' / 'Passwords do not match' when they differ, and sends nothing", async () => {
    const { calls } = mockFetch();
    renderRoute('/reset-password?token=t0k3n', '/reset-password', <ResetPasswordPage />);
    reset('new-password-1', 'new-password-2');
    await expectToast('Error', 'Passwords do not match', 'error');
    expect(calls).toEqual([]);
  });

  it.each(failures('Something went wrong'))(
    "shows 'Reset Failed' for %s and stays on the page",
    async (_name, reply, text) => {
      mockFetch(reply);
      renderRoute('/reset-password?token=t0k3n', '/reset-password', <ResetPasswordPage />);
      reset('new-password-1', 'new-password-1');
      await expectToast('Reset Failed', text, 'error');
      expect(screen.queryByText('Elsewhere')).toBeNull();
      expect(screen.getByRole('button', { name: 'Reset Password' })).toBeEnabled();
    },
  );

  it('sends the token and both passwords, then goes to /login', async () => {
    const { calls } = mockFetch(() => ({ json: { message: 'reset' } }));
    renderRoute('/reset-password?token=t0k3n', '/reset-password', <ResetPasswordPage />);
    reset('new-password-1', 'new-password-1');
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /reset-password']);
    expect(JSON.parse(textOf(calls[0]))).toEqual({
      token: 't0k3n',
      new_password: 'new-password-1',
      confirm_password: 'new-password-1',
    });
  });
});
