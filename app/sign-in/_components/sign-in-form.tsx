'use client';
/** The sign-in form: calls the sign-in action, which answers a success with the page the user came for (a redirect). */
import { useState, useTransition } from 'react';
import { signInAction } from '@/lib/actions/sign-in';

export function SignInForm({ next }: { next: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    start(async () => {
      // Success never returns here: the action redirects, and Next renders the page it names.
      const res = await signInAction({ email, password, next });
      if (!res.ok) setError(res.fieldErrors ? Object.values(res.fieldErrors).flat().join(' ') : res.error);
    });
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-label="Sign in">
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {error ? (
        <p className="alert error" role="alert">
          {error}
        </p>
      ) : null}
      <div>
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </div>
    </form>
  );
}
