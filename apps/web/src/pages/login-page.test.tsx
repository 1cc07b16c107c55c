import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AuthProvider } from '../auth/auth-context';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch, renderRoute, textOf } from '../features/testing/render';
import { LoginPage } from './login-page';
import { dismissAllToasts, expectToast, failures } from './toast-expectations';

function logIn() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse-1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    dismissAllToasts();
  });

  it.each(failures('Invalid email or password'))(
    "shows 'Login Failed' for %s and stays on the page, logged out",
    async (_name, reply, text) => {
      const { calls } = mockFetch(reply);
      renderRoute('/login', '/login', <LoginPage />);
      logIn();
      await expectToast('Login Failed', text, 'error');
      expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /auth/login']);
      expect(screen.queryByText('Elsewhere')).toBeNull();
      expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
      expect(localStorage.getItem('token')).toBeNull();
    },
  );

  it('is busy while the call is in flight, then saves the session and goes to /dashboard', async () => {
    const answer = deferred<{ json: unknown }>();
    const { calls } = mockFetch(() => answer.promise);
    renderRoute('/login', '/login', <LoginPage />);
    logIn();
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled());
    expect(JSON.parse(textOf(calls[0]))).toEqual({
      email: 'ada@example.com',
      password: 'correct-horse-1',
    });

    const user = { id: 'u1', username: 'ada', email: 'ada@example.com' };
    answer.resolve({ json: { access_token: 'jwt-ada', token_type: 'bearer', user } });
    await expectToast('Success', 'Logged in successfully', 'success');
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('jwt-ada');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(user);
  });

  it('returns to the protected page that sent the visitor to log in, query included', async () => {
    const user = { id: 'u1', username: 'ada', email: 'ada@example.com' };
    mockFetch(() => ({ json: { access_token: 'jwt-ada', token_type: 'bearer', user } }));
    const from = '/pipeline/rag/0b5c7a52-8a31-4c53-9a7f-4c1f3a0e9b11?step=5';
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[{ pathname: '/login', state: { from } }]}>
          <AuthProvider>
            <Routes>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/pipeline/:type/:sessionId" element={<p>The wizard, step 5</p>} />
              <Route path="*" element={<p>Elsewhere</p>} />
            </Routes>
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    logIn();
    expect(await screen.findByText('The wizard, step 5')).toBeInTheDocument();
  });
});
