import 'server-only';
/**
 * Dashboard sign-in through better-auth (email + password; better-auth hashes passwords and issues
 * session tokens — nothing here is hand-rolled). Users, sessions and accounts live in the app's own
 * database through the Prisma adapter, whichever provider DATABASE_URL names.
 */
import { betterAuth } from 'better-auth';
import { createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import { getDb, type Database } from '../db/core';
import { limitSignIn, PASSWORD_CHECK_PATHS } from './sign-in-limit';

import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../schemas/password-rules';

export { MIN_PASSWORD_LENGTH } from '../schemas/password-rules';

/** BETTER_AUTH_SECRET signs cookies; a fixed development value is used only outside production. */
function secret(): string {
  const value = process.env.BETTER_AUTH_SECRET;
  if (value && value.length >= 32) return value;
  if (process.env.NODE_ENV === 'production' && process.env.STOCKROOM_ALLOW_DEV_SECRET !== '1') {
    throw new Error('BETTER_AUTH_SECRET must be set to at least 32 characters in production');
  }
  return 'stockroom-development-secret-not-for-production-use';
}

export function createAuth(db: Database) {
  return betterAuth({
    secret: secret(),
    baseURL: process.env.BETTER_AUTH_URL ?? 'http://127.0.0.1:3000',
    database: prismaAdapter(db.prisma, { provider: db.provider === 'postgres' ? 'postgresql' : 'sqlite' }),
    emailAndPassword: { enabled: true, minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: MAX_PASSWORD_LENGTH, disableSignUp: true },
    plugins: [nextCookies()],
    // One limiter for every sign-in path (./sign-in-limit.ts): before hooks run for HTTP requests and
    // for direct auth.api calls alike. better-auth's own limiter is off: it keys on address and path
    // only (not the account), keeps counts in process memory, and skips direct api calls.
    rateLimit: { enabled: false },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path.startsWith('/sign-in')) {
          await limitSignIn(db.prisma, { email: (ctx.body as { email?: unknown } | undefined)?.email, headers: ctx.headers });
          return;
        }
        // Every other endpoint that checks a password counts against the same limits: the signed-in
        // account's bucket (shared with sign-in, so guesses cannot be spread over paths) and the address's.
        if (PASSWORD_CHECK_PATHS.includes(ctx.path)) {
          const session = await getSessionFromCtx(ctx).catch(() => null);
          await limitSignIn(db.prisma, { email: session?.user.email, headers: ctx.headers });
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const cache = globalThis as unknown as { __stockroomAuth?: Auth };

/** The process-wide auth instance over the process-wide database. */
export function getAuth(): Auth {
  cache.__stockroomAuth ??= createAuth(getDb());
  return cache.__stockroomAuth;
}
