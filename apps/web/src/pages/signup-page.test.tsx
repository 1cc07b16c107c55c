import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../components/test-utils';
import { deferred, mockFetch, renderRoute } from '../features/testing/render';
import { SignupPage } from './signup-page';
import { dismissAllToasts, expectToast, failures } from './toast-expectations';

describe('SignupPage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    dismissAllToasts();
  });

  function fill(password: string, confirm: string) {
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ada' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
    fireEvent.change(screen.getByLabelText('Confirm Password'), { target: { value: confirm } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it("shows 'Passwords do not match.' and submits nothing when the passwords differ", () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderWithProviders(<SignupPage />, { route: '/signup' });
    fill('correct-horse-1', 'correct-horse-2');
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('sends the same password as password and confirm_password', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        new Response(JSON.stringify({ detail: 'Email already registered.' }), { status: 409 }),
      );
    renderWithProviders(<SignupPage />, { route: '/signup' });
    fill('correct-horse-1', 'correct-horse-1');
    await vi.waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/auth\/signup$/);
    expect(JSON.parse(init.body as string)).toEqual({
      username: 'ada',
      email: 'ada@example.com',
      password: 'correct-horse-1',
      confirm_password: 'correct-horse-1',
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each(failures('Signup error'))(
    "shows 'Signup Failed' for %s, and does not log in",
    async (_name, reply, text) => {
      const { calls } = mockFetch(reply);
      renderRoute('/signup', '/signup', <SignupPage />);
      fill('correct-horse-1', 'correct-horse-1');
      await expectToast('Signup Failed', text, 'error');
      expect(calls.map((call) => call.path)).toEqual(['/auth/signup']);
      expect(screen.queryByText('Elsewhere')).toBeNull();
      expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
    },
  );

  it('stays busy through the signup and the automatic login, then goes to /dashboard', async () => {
    const login = deferred<{ json: unknown }>();
    const { calls } = mockFetch((call) =>
      call.path === '/auth/signup' ? { status: 201, json: { message: 'created' } } : login.promise,
    );
    renderRoute('/signup', '/signup', <SignupPage />);
    fill('correct-horse-1', 'correct-horse-1');
    await expectToast('Success', 'Account created successfully', 'success');
    await vi.waitFor(() =>
      expect(calls.map((call) => call.path)).toEqual(['/auth/signup', '/auth/login']),
    );
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDisabled();

    login.resolve({
      json: {
        access_token: 'jwt-ada',
        token_type: 'bearer',
        user: { id: 'u1', username: 'ada', email: 'ada@example.com' },
      },
    });
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
  });
});
