import { ZUsername } from '@agentloom/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { AuthCard, AuthSwitchFooter, EmailField, NewPasswordFields } from '../components/auth-card';
import { Alert, Button, TextField } from '../components/ui';
import { notify } from '../lib/notify';

/** Shown (and nothing submitted) when the two passwords differ. */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';

/**
 * Sign up (docs/product.md#sign-up-and-sign-in); success signs in automatically, then /dashboard.
 */
export function SignupPage() {
  const { signup, signupPending, loginPending } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = useState({ username: '', email: '', password: '', confirm: '' });
  const [mismatch, setMismatch] = useState(false);

  const set = (field: 'username' | 'email') => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (form.password !== form.confirm) {
      setMismatch(true);
      notify.error(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    const ok = await signup({
      username: form.username.trim(),
      email: form.email.trim(),
      password: form.password,
    });
    // A new user is welcomed, not welcomed back.
    if (ok) void navigate('/dashboard', { state: { newUser: true } });
  }

  return (
    <AuthCard
      title="Create your account"
      description="Start building AI agents in minutes, no code required."
      footer={<AuthSwitchFooter question="Already have an account?" to="/login" label="Log in" />}
    >
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate={false}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={form.username}
          onChange={set('username')}
          placeholder="ada_lovelace"
          // The rule is said before it is broken, and a broken one is named as it is typed.
          hint="3 to 32 letters, digits, dots, dashes or underscores — no spaces."
          error={usernameProblem(form.username)}
        />
        <EmailField value={form.email} onChange={set('email')} />
        <NewPasswordFields
          labels={{ password: 'Password', confirm: 'Confirm Password' }}
          name="password"
          value={form}
          onChange={({ password, confirm }) => {
            setForm((current) => ({ ...current, password, confirm }));
            setMismatch(false);
          }}
          mismatch={mismatch}
        />
        {mismatch && <Alert>{PASSWORDS_DO_NOT_MATCH}</Alert>}
        {/* Busy through the signup call and the automatic login after it. */}
        <Button type="submit" className="w-full" loading={signupPending || loginPending}>
          Create Account
        </Button>
      </form>
    </AuthCard>
  );
}

/** What is wrong with a typed username, by the rule the server applies; nothing while empty. */
function usernameProblem(username: string): string | undefined {
  if (!username) return undefined;
  const checked = ZUsername.safeParse(username);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}
