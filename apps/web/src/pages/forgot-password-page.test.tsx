import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, type Call, type Reply } from '../features/testing/render';
import { ForgotPasswordPage } from './forgot-password-page';
import { dismissAllToasts, expectToast, failures } from './toast-expectations';

const EMAIL = 'ada@example.com';
const QUERY = `?email=${encodeURIComponent(EMAIL)}`;

function requestLink() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: EMAIL } });
  fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

const described = (calls: Call[]) => calls.map((call) => `${call.method} ${call.path}`);

describe('ForgotPasswordPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    dismissAllToasts();
  });

  it.each(failures('Unable to send reset email'))(
    "shows 'Error' for %s and keeps the form",
    async (_name, reply, text) => {
      const { calls } = mockFetch(reply);
      renderRoute('/forgot-password', '/forgot-password', <ForgotPasswordPage />);
      requestLink();
      await expectToast('Error', text, 'error');
      expect(described(calls)).toEqual([`POST /auth/forgot-password${QUERY}`]);
      expect(calls[0]!.body).toBeUndefined();
      expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
      expect(screen.queryByText('Check your email')).toBeNull();
    },
  );

  it('confirms with the entered e-mail and leads back to login', async () => {
    const { calls } = mockFetch(() => ({ json: { message: 'sent' } }));
    renderRoute('/forgot-password', '/forgot-password', <ForgotPasswordPage />);
    requestLink();
    await expectToast('Email Sent', 'Check your inbox for reset link', 'success');
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText(EMAIL)).toBeInTheDocument();
    expect(described(calls)).toEqual([`POST /auth/forgot-password${QUERY}`]);
    fireEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
  });

  describe('Resend link, on the confirmation (the second forgot-password path)', () => {
    /** Lets the first request succeed and answers the resend with `resend`. */
    async function confirmThenResend(resend: () => Reply) {
      const mock = mockFetch((call) =>
        call.path.startsWith('/auth/') ? { json: { message: 'sent' } } : resend(),
      );
      renderRoute('/forgot-password', '/forgot-password', <ForgotPasswordPage />);
      requestLink();
      await screen.findByRole('heading', { name: 'Check your email' });
      fireEvent.click(screen.getByRole('button', { name: 'Resend link' }));
      return mock;
    }

    it("sends POST /forgot-password?email=… with no body and says 'Email Sent'", async () => {
      const { calls } = await confirmThenResend(() => ({ json: { message: 'sent' } }));
      await vi.waitFor(() =>
        expect(described(calls)).toEqual([
          `POST /auth/forgot-password${QUERY}`,
          `POST /forgot-password${QUERY}`,
        ]),
      );
      expect(calls[1]!.body).toBeUndefined();
      // A second 'Email Sent' toast next to the first request's one.
      await vi.waitFor(() =>
        expect(screen.getAllByText('Email Sent', { exact: true })).toHaveLength(2),
      );
      expect(screen.getAllByText('Check your inbox for reset link', { exact: true })).toHaveLength(
        2,
      );
      expect(screen.getByRole('button', { name: 'Resend link' })).toBeEnabled();
    });

    it.each(failures('Could not send reset email. Please try again.'))(
      "shows 'Failed' for %s and stays on the confirmation",
      async (_name, reply, text) => {
        await confirmThenResend(reply);
        await expectToast('Failed', text, 'error');
        expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Resend link' })).toBeEnabled();
      },
    );
  });
});
