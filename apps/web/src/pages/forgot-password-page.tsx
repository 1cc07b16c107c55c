import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, MailCheck, RotateCw } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard, EmailField, inlineLinkClasses } from '../components/auth-card';
import { Button, buttonClasses } from '../components/ui';
import { api, errorDetail } from '../lib/api';
import { notify } from '../lib/notify';

/**
 * docs/product.md#sign-up-and-sign-in: an e-mail form, then a sent-confirmation state naming that
 * e-mail.
 */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (address: string) =>
      api('/auth/forgot-password', { method: 'POST', query: { email: address } }),
    onSuccess: (_answer, address) => {
      setSentTo(address);
      notify.success('Email Sent', 'Check your inbox for reset link');
    },
    onError: (error) => notify.error('Error', errorDetail(error) ?? 'Unable to send reset email'),
  });

  // The product has a second forgot-password path with its own failure toast; it serves the
  // confirmation screen's "resend", so both paths are in use.
  const resend = useMutation({
    mutationFn: (address: string) =>
      api('/forgot-password', { method: 'POST', query: { email: address } }),
    onSuccess: () => notify.success('Email Sent', 'Check your inbox for reset link'),
    onError: (error) =>
      notify.error('Failed', errorDetail(error) ?? 'Could not send reset email. Please try again.'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    send.mutate(email.trim());
  }

  if (sentTo !== null) {
    return (
      <ResetLinkSent
        sentTo={sentTo}
        resending={resend.isPending}
        onResend={() => resend.mutate(sentTo)}
        onBack={() => void navigate('/login')}
      />
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the e-mail you signed up with and we will send you a reset link."
      footer={
        <p>
          Remembered it?{' '}
          <Link to="/login" className={inlineLinkClasses}>
            Back to Login
          </Link>
        </p>
      }
    >
      <form className="space-y-4" onSubmit={submit}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <Button type="submit" className="w-full" loading={send.isPending}>
          Send Reset Link
        </Button>
      </form>
      <div className="mt-4 text-center">
        <Link to="/" className={buttonClasses('ghost', 'sm')}>
          Back to Home
        </Link>
      </div>
    </AuthCard>
  );
}

/** The confirmation state: names the address, never says whether an account exists. */
function ResetLinkSent({
  sentTo,
  resending,
  onResend,
  onBack,
}: {
  sentTo: string;
  resending: boolean;
  onResend: () => void;
  onBack: () => void;
}) {
  return (
    <AuthCard title="Check your email">
      <div className="space-y-6 text-center" role="status">
        <MailCheck
          aria-hidden="true"
          className="mx-auto h-12 w-12 text-indigo-600 dark:text-indigo-400"
        />
        <p className="text-sm text-slate-700 dark:text-slate-200">
          If an account exists for{' '}
          <strong className="font-semibold text-slate-900 dark:text-white">{sentTo}</strong>, we
          have sent a link to reset its password. The link expires soon, so use it shortly.
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Nothing after a few minutes? Check your spam folder, or send the link again.
        </p>
        <div className="space-y-3">
          <Button className="w-full" onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back to Login
          </Button>
          <Button variant="outline" className="w-full" loading={resending} onClick={onResend}>
            <RotateCw aria-hidden="true" className="h-4 w-4" />
            Resend link
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
