/**
 * A test harness for server actions outside Next.js: a migrated temporary database (SQLite, or
 * PostgreSQL when asked) as the process database, real better-auth sessions for seeded users, and a `next/headers` stand-in
 * whose cookie is whichever session the test chose. Tests must `vi.mock('next/headers')` and
 * `vi.mock('next/cache')` with the factories below before importing any action.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../../../scripts/db-migrate.mjs';
import type { Role } from '../../governance/principal';
import { createTestDatabaseUrl } from '../../db/testing/test-databases';

/** The session cookie of the chosen user, and other cookies a response set (the tenant choice). */
const state = { cookie: '', extra: new Map<string, string>() };

function cookieHeader(): string {
  return [state.cookie, ...[...state.extra].map(([k, v]) => `${k}=${encodeURIComponent(v)}`)].filter(Boolean).join('; ');
}

/** The `next/headers` stand-in: `headers()` carries the chosen session cookie; `cookies().set` is kept like a browser would. */
export const nextHeadersMock = () => ({
  headers: async () => new Headers(cookieHeader() ? { cookie: cookieHeader() } : {}),
  cookies: async () => ({
    get: (name: string) => (state.extra.has(name) ? { name, value: state.extra.get(name)! } : undefined),
    getAll: () => [...state.extra].map(([name, value]) => ({ name, value })),
    set: (name: string, value: string) => void state.extra.set(name, value),
    delete: (name: string) => void state.extra.delete(name),
    has: (name: string) => state.extra.has(name),
  }),
});

/** The `next/cache` stand-in (revalidation is a no-op outside Next). */
export const nextCacheMock = () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined });

/** Users every action test gets: email → roles in a tenant. */
export const TEST_USERS = {
  admin: { email: 'admin@example.test', roles: ['admin', 'operator', 'reviewer'], tenant: 'kittiwake' },
  operator: { email: 'operator@example.test', roles: ['operator'], tenant: 'kittiwake' },
  reviewer: { email: 'reviewer@example.test', roles: ['reviewer'], tenant: 'kittiwake' },
  reviewer2: { email: 'reviewer2@example.test', roles: ['reviewer'], tenant: 'kittiwake' },
  viewer: { email: 'viewer@example.test', roles: ['viewer'], tenant: 'kittiwake' },
  outsider: { email: 'outsider@example.test', roles: ['reviewer', 'operator'], tenant: 'other-depot' },
} as const satisfies Record<string, { email: string; roles: readonly Role[]; tenant: string }>;
export type TestUser = keyof typeof TEST_USERS;
export const TEST_PASSWORD = 'correct horse battery staple';

export interface ActionEnv {
  /** User ids by test name (the seeded ones and any added with addUser). */
  ids: Record<string, string>;
  /**
   * Makes the following action calls come from `user`'s session, or from nobody; `tenant` also sends
   * the tenant-choice cookie (otherwise cookies a previous action set are dropped).
   */
  as(user: TestUser | (string & {}) | null, options?: { tenant?: string }): void;
  /** Seeds another user with memberships in several tenants and signs them in. */
  addUser(name: string, email: string, memberships: { tenant: string; roles: readonly Role[] }[]): Promise<string>;
  /** The database URL the app was pointed at. */
  url: string;
  cleanup(): Promise<void>;
}

/**
 * Creates and migrates the database (on `pgServer`, a test's own cluster; or `url`, an empty PostgreSQL
 * database of the caller's that the caller removes; or SQLite under `sqliteDir`, when given), points the
 * app at it, seeds users and signs each one in.
 */
export async function setUpActionEnv(
  options: { provider?: 'sqlite' | 'postgres'; pgServer?: string; sqliteDir?: string; url?: string } = {},
): Promise<ActionEnv> {
  const dir = fs.mkdtempSync(path.join(options.sqliteDir ?? os.tmpdir(), 'stockroom-actions-'));
  const pg = options.url === undefined && options.provider === 'postgres' ? await createTestDatabaseUrl('postgres', options.pgServer) : null;
  const url = options.url ?? pg?.url ?? `file:${path.join(dir, 'test.db')}`;
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET ??= 'test-secret-for-action-tests-0123456789abcdef';
  await migrate({ url });
  const { getDb } = await import('../../db/core/client');
  const { upsertUser } = await import('../../auth/users');
  const { getAuth } = await import('../../auth/auth');
  const db = getDb();
  const ids: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  const signIn = async (email: string) => {
    const res = await getAuth().api.signInEmail({ body: { email, password: TEST_PASSWORD }, returnHeaders: true });
    const setCookie = res.headers.get('set-cookie') ?? '';
    const session = /(better-auth\.session_token=[^;]+)/.exec(setCookie)?.[1];
    if (!session) throw new Error(`no session cookie for ${email}`);
    return session;
  };
  for (const [name, u] of Object.entries(TEST_USERS) as [TestUser, (typeof TEST_USERS)[TestUser]][]) {
    ids[name] = await upsertUser(db, { email: u.email, password: TEST_PASSWORD, roles: u.roles, tenant: u.tenant });
    cookies[name] = await signIn(u.email);
  }
  return {
    ids,
    url,
    as(user, opts = {}) {
      if (user && !cookies[user]) throw new Error(`no test user '${user}'`);
      state.cookie = user ? cookies[user]! : '';
      state.extra.clear();
      if (opts.tenant !== undefined) state.extra.set('stockroom-tenant', opts.tenant);
    },
    async addUser(name, email, memberships) {
      for (const m of memberships) ids[name] = await upsertUser(db, { email, password: TEST_PASSWORD, roles: m.roles, tenant: m.tenant });
      cookies[name] = await signIn(email);
      return ids[name]!;
    },
    async cleanup() {
      const { closeJobQueue } = await import('../../jobs/queue');
      await closeJobQueue();
      await db.close();
      await pg?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for a queued suite to finish (its jobs run in this process) and says how it ended. */
export async function suiteFinished(id: string): Promise<{ status: string; error: string | null }> {
  const { getSuiteRunOrThrow } = await import('../../db/suites/suites');
  for (;;) {
    const suite = await getSuiteRunOrThrow(id);
    if (suite.status === 'done' || suite.status === 'failed') return { status: suite.status, error: suite.error ?? null };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Where an action that ends in Next's `redirect()` sends the browser: the path it names, or `null`
 * when the action returned instead. Any other error propagates.
 */
export async function redirectedTo(action: Promise<unknown>): Promise<string | null> {
  const { isRedirectError } = await import('next/dist/client/components/redirect-error');
  const { getURLFromRedirectError } = await import('next/dist/client/components/redirect');
  try {
    await action;
    return null;
  } catch (err) {
    if (isRedirectError(err)) return getURLFromRedirectError(err);
    throw err;
  }
}
