/** Sign-in for dashboard users (email + password; accounts are created with `npm run stockroom -- admin create`). */
import { redirect } from 'next/navigation';
import { currentPrincipal } from '@/lib/auth/authorize';
import { NextPathSchema } from '@/lib/schemas/governance';
import { SignInForm } from './_components/sign-in-form';

export const dynamic = 'force-dynamic';

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  const next = NextPathSchema.parse(typeof raw === 'string' ? raw : '/');
  if (await currentPrincipal()) redirect(next);
  return (
    <main className="page" style={{ maxWidth: '28rem' }}>
      <h1>Sign in</h1>
      <p className="lede">Sign in with the email and password an admin created for you.</p>
      <SignInForm next={next} />
      <p className="muted small">
        No account yet? The first admin is created on the server:
        <br />
        <code>npm run stockroom -- admin create --email you@example.com --password &apos;…&apos; --role admin,operator,reviewer --tenant kittiwake</code>
      </p>
    </main>
  );
}
