import 'server-only';
/**
 * The one sign-in limiter, for every sign-in path and every other password check (change-password,
 * verify-password, delete-user, keyed by the signed-in account): better-auth runs it as a `before` hook, which it
 * applies both to HTTP requests (`/api/auth/sign-in/*`) and to direct `auth.api.signInEmail` calls (the
 * sign-in server action). Each attempt counts against the account (the email given) and against the
 * client address the server stamped (scripts/client-address.mjs); either over its limit refuses the
 * attempt before the password is checked, so the right password does not get through either.
 * Counts live in the database (lib/db/auth/sign-in-throttle.ts): the limit holds across server processes.
 */
import { APIError } from 'better-auth/api';
import { CLIENT_ADDRESS_HEADER } from '../../scripts/client-address.mjs';
import type { Prisma } from '../db/core';
import { consumeSignInAttempt, pruneSignInThrottle, type ThrottleRule } from '../db/auth';

/** Sign-in attempts allowed per account (email) per minute, right or wrong. */
export const SIGN_IN_PER_ACCOUNT: ThrottleRule = { max: 5, windowMs: 60_000 };
/** Sign-in attempts allowed per client address per minute, over all accounts. */
export const SIGN_IN_PER_ADDRESS: ThrottleRule = { max: 20, windowMs: 60_000 };
/** better-auth endpoints besides sign-in that check a password (a signed-in user's): limited like sign-in. */
export const PASSWORD_CHECK_PATHS: readonly string[] = ['/change-password', '/verify-password', '/delete-user'];

/** Key of the one shared bucket used when no server stamped an address (e.g. plain `next start`). */
export const UNKNOWN_ADDRESS = 'unknown';

/** The client address the server stamped, or `unknown` (one shared bucket: stricter, never bypassable). */
export function clientAddress(headers: Headers | undefined): string {
  const stamped = headers?.get(CLIENT_ADDRESS_HEADER)?.trim();
  return stamped ? ipv6Prefix(stamped) : UNKNOWN_ADDRESS;
}

/** An IPv6 client is counted by its /64 (one host usually holds a whole /64); IPv4 as is. */
function ipv6Prefix(address: string): string {
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Thrown (as better-auth's APIError, status 429) when an attempt is over a limit. */
export function tooManyAttempts(retryAfterS: number): APIError {
  return new APIError(
    'TOO_MANY_REQUESTS',
    // Sign-in and every other password check share this message (the existing UI matches on it).
    { message: `Too many sign-in attempts. Try again in ${retryAfterS} s.`, code: 'TOO_MANY_SIGN_IN_ATTEMPTS' },
    { 'Retry-After': String(retryAfterS) },
  );
}

/** Counts one attempt for the account and the address; throws a 429 APIError when either is over. */
export async function limitSignIn(prisma: Prisma, attempt: { email: unknown; headers: Headers | undefined }): Promise<void> {
  const email = typeof attempt.email === 'string' ? attempt.email.trim().toLowerCase().slice(0, 320) : '';
  const verdicts = await Promise.all([
    consumeSignInAttempt(prisma, `address:${clientAddress(attempt.headers)}`, SIGN_IN_PER_ADDRESS),
    email ? consumeSignInAttempt(prisma, `account:${email}`, SIGN_IN_PER_ACCOUNT) : null,
  ]);
  // Housekeeping off the request's path: windows long over are deleted (an indexed range delete).
  void pruneSignInThrottle(prisma, 10 * Math.max(SIGN_IN_PER_ACCOUNT.windowMs, SIGN_IN_PER_ADDRESS.windowMs)).catch(() => undefined);
  const refused = verdicts.filter((v) => v !== null && !v.allowed);
  if (refused.length > 0) throw tooManyAttempts(Math.max(...refused.map((v) => v!.retryAfterS)));
}
