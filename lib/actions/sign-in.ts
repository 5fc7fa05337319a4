'use server';
/**
 * Signs a dashboard user in with email and password through better-auth (which checks the hash and
 * sets the session cookie via its nextCookies plugin). The one public action: it is how a caller
 * gets a session. A wrong email and a wrong password get the same answer. Attempts are limited per
 * account and per client address (lib/auth/sign-in-limit.ts, run by better-auth for this call too).
 *
 * On success it redirects to the page the user came for. Next renders that page from the root layout
 * into the action's own response (the cookie it set makes the whole tree render again), so the
 * signed-in header arrives in the same round trip instead of after a second, full page load.
 */
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '../auth/auth';
import { fieldErrorsOf } from '../boundary/safe-action';
import { SignInInputSchema } from '../schemas/governance';
import type { ActionResult } from '../boundary/result';
import { toFailure } from '../boundary/to-failure';

/** Resolves only with a failure: success redirects (a `NEXT_REDIRECT` error Next turns into the navigation). */
export async function signInAction(raw: { email: string; password: string; next?: string }): Promise<ActionResult<never>> {
  const parsed = SignInInputSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: 'Some fields are not valid.', code: 'invalid_input', fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    await getAuth().api.signInEmail({ body: { email: parsed.data.email, password: parsed.data.password }, headers: await headers() });
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 429) return { ok: false, code: 'rate_limited', error: (err as Error).message || 'Too many sign-in attempts. Try again later.' };
    if (status === 401 || status === 400 || status === 403) {
      return { ok: false, code: 'invalid_credentials', error: 'That email and password do not match a dashboard user.' };
    }
    const f = toFailure(err, 'signIn');
    return { ok: false, error: f.error, code: f.code };
  }
  // Outside the try: redirect() throws, and that throw is Next's navigation, not a failure.
  redirect(parsed.data.next ?? '/');
}
