import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthCard, inlineLinkClasses, NewPasswordFields } from '../components/auth-card';
import { Alert, Button } from '../components/ui';
import { api, errorDetail } from '../lib/api';
import { notify } from '../lib/notify';

type ResetInput = { token: string; new_password: string; confirm_password: string };

/**
 * docs/product.md#sign-up-and-sign-in: reads ?token, sets a new password, success goes to /login.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [passwords, setPasswords] = useState({ password: '', confirm: '' });

  const reset = useMutation({
    mutationFn: (input: ResetInput) => api('/reset-password', { json: input }),
    onSuccess: () => {
      notify.success('Success', 'Your password has been reset. You can now log in.');
      void navigate('/login');
    },
    onError: (error) => notify.error('Reset Failed', errorDetail(error) ?? 'Something went wrong'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) {
      notify.error('Invalid Link', 'Token missing');
      return;
    }
    if (passwords.password !== passwords.confirm) {
      notify.error('Error', 'Passwords do not match');
      return;
    }
    reset.mutate({
      token,
      new_password: passwords.password,
      confirm_password: passwords.confirm,
    });
  }

  return (
    <AuthCard
      title="Set a new password"
      description="Choose a new password for your Agentloom account."
      footer={
        <p>
          <Link to="/login" className={inlineLinkClasses}>
            Back to Login
          </Link>
        </p>
      }
    >
      {!token && (
        <Alert className="mb-4">
          This reset link has no token. Open the link from your e-mail again, or{' '}
          <Link to="/forgot-password" className={inlineLinkClasses}>
            request a new one
          </Link>
          .
        </Alert>
      )}
      <form className="space-y-4" onSubmit={submit}>
        <NewPasswordFields
          labels={{ password: 'New Password', confirm: 'Confirm New Password' }}
          name="new_password"
          value={passwords}
          onChange={setPasswords}
        />
        <Button type="submit" className="w-full" loading={reset.isPending}>
          Reset Password
        </Button>
      </form>
    </AuthCard>
  );
}
