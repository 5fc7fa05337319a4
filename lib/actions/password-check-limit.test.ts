/**
 * Issue 22 §6: password checks are limited on every path. `POST /api/auth/change-password` and
 * `/api/auth/verify-password` took 60 wrong guesses with no 429; they now count against the same
 * per-account and per-address limits as sign-in, and once over, the right password is refused too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from '../../scripts/client-address.mjs';
import { SIGN_IN_PER_ACCOUNT } from '../auth/sign-in-limit';
import { nextCacheMock, setUpActionEnv, TEST_PASSWORD, TEST_USERS, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env.cleanup();
});
beforeEach(async () => {
  const { getDb } = await import('../db/core/client');
  await getDb().prisma.signInThrottle.deleteMany();
});

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  const { getAuth } = await import('../auth/auth');
  return getAuth().handler(
    new Request(`http://127.0.0.1:3000/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
  );
}

/** Signs in over HTTP and returns the session cookie (from an address of its own). */
async function sessionCookie(email: string): Promise<string> {
  const res = await post('/sign-in/email', { email, password: TEST_PASSWORD }, { [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

describe.each([
  ['/change-password', (guess: string) => ({ currentPassword: guess, newPassword: 'a brand new passphrase 42' })],
  ['/verify-password', (guess: string) => ({ password: guess })],
] as const)('%s', (path, body) => {
  it('answers 429 after a few wrong guesses, and then refuses the right password too', async () => {
    const email = path === '/change-password' ? TEST_USERS.operator.email : TEST_USERS.reviewer.email;
    const cookie = await sessionCookie(email);
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_ACCOUNT.max + 2; i++) {
      statuses.push((await post(path, body(`wrong-guess-${i}`), { cookie, [CLIENT_ADDRESS_HEADER]: `198.51.100.${i}` })).status);
    }
    expect(statuses.some((s) => s === 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const right = await post(path, body(TEST_PASSWORD), { cookie, [CLIENT_ADDRESS_HEADER]: '198.51.100.250' });
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
