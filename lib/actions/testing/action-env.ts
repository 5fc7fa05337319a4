/**
 * A test harness for server actions outside Next.js: a migrated temporary SQLite database as the
 * process database, real better-auth sessions for seeded users, and a `next/headers` stand-in
 * whose cookie is whichever session the test chose. Tests must `vi.mock('next/headers')` and
 * `vi.mock('next/cache')` with the factories below before importing any action.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../../../scripts/db-migrate.mjs';
import type { Role } from '../../governance/principal';

const state = { cookie: '' };

/** The `next/headers` stand-in: `headers()` carries the chosen session cookie. */
export const nextHeadersMock = () => ({
  headers: async () => new Headers(state.cookie ? { cookie: state.cookie } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
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
  /** User ids by test name. */
  ids: Record<TestUser, string>;
  /** Makes the following action calls come from `user`'s session, or from nobody. */
  as(user: TestUser | null): void;
  cleanup(): Promise<void>;
}

/** Creates and migrates the database, points the app at it, seeds users and signs each one in. */
export async function setUpActionEnv(): Promise<ActionEnv> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-actions-'));
  const url = `file:${path.join(dir, 'test.db')}`;
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET ??= 'test-secret-for-action-tests-0123456789abcdef';
  await migrate({ url });
  const { getDb } = await import('../../db/client');
  const { upsertUser } = await import('../../auth/users');
  const { getAuth } = await import('../../auth/auth');
  const db = getDb();
  const ids = {} as Record<TestUser, string>;
  const cookies = {} as Record<TestUser, string>;
  for (const [name, u] of Object.entries(TEST_USERS) as [TestUser, (typeof TEST_USERS)[TestUser]][]) {
    ids[name] = await upsertUser(db, { email: u.email, password: TEST_PASSWORD, roles: u.roles, tenant: u.tenant });
    const res = await getAuth().api.signInEmail({ body: { email: u.email, password: TEST_PASSWORD }, returnHeaders: true });
    const setCookie = res.headers.get('set-cookie') ?? '';
    const session = /(better-auth\.session_token=[^;]+)/.exec(setCookie)?.[1];
    if (!session) throw new Error(`no session cookie for ${u.email}`);
    cookies[name] = session;
  }
  return {
    ids,
    as(user) {
      state.cookie = user ? cookies[user] : '';
    },
    async cleanup() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
