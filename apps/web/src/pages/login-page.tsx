import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { SESSION_ENDED, useAuth } from '../auth/auth-context';
import {
  AuthCard,
  AuthSwitchFooter,
  EmailField,
  inlineLinkClasses,
  PasswordField,
} from '../components/auth-card';
import { Alert, Button } from '../components/ui';

/** Log in (docs/product.md#sign-up-and-sign-in): email and password; success goes to /dashboard. */
export function LoginPage() {
  const { login, loginPending } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const ended = (location.state as { sessionEnded?: unknown } | null)?.sessionEnded === true;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Back to the protected page that sent the visitor here, else the dashboard.
    if (await login(email, password)) void navigate(returnPath(location.state), { replace: true });
  }

  return (
    <AuthCard
      title="Welcome back"
      description="Log in to build, preview and download your AI agents."
      footer={<AuthSwitchFooter question="Don't have an account?" to="/signup" label="Sign up" />}
    >
      {ended && (
        <Alert tone="info" className="mb-4">
          {SESSION_ENDED}. Your agents and keys are safe; you will return to the page you were on.
        </Alert>
      )}
      <form className="space-y-4" onSubmit={(event) => void submit(event)}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <div className="space-y-1.5">
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <div className="text-right text-sm">
            <Link to="/forgot-password" className={inlineLinkClasses}>
              Forgot password?
            </Link>
          </div>
        </div>
        <Button type="submit" className="w-full" loading={loginPending}>
          Log in
        </Button>
      </form>
    </AuthCard>
  );
}

/** The in-app path RequireAuth stored, or /dashboard; never an address outside the app. */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//')
    ? from
    : '/dashboard';
}
