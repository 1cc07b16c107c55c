import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../components/test-utils';
import { SignupPage } from './signup-page';

describe('SignupPage (SPEC §5)', () => {
  afterEach(() => vi.restoreAllMocks());

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
});
