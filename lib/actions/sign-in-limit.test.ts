/**
 * Issue 9 §6: the sign-in action called better-auth's API directly and skipped its rate limiter
 * (60 wrong passwords in 7.4 s, then the right one signed in), and the HTTP endpoint's limit was
 * bypassed by rotating X-Forwarded-For. Both paths now count against one limiter per account and per
 * client address, stored in the database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ADDRESS_HEADER, stampClientAddress } from '../../scripts/client-address.mjs';
import { SIGN_IN_PER_ACCOUNT, SIGN_IN_PER_ADDRESS } from '../auth/sign-in-limit';
import { nextCacheMock, redirectedTo, setUpActionEnv, TEST_PASSWORD, TEST_USERS, type ActionEnv } from './testing/action-env';

const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock('next/headers', () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let n = 0;
/** A request from `address` as the server stamps it, carrying a client-chosen X-Forwarded-For. */
const from = (address: string) => new Headers({ [CLIENT_ADDRESS_HEADER]: address, 'x-forwarded-for': `203.0.113.${++n % 250}` });

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

async function signIn(email: string, password: string, headers: Headers) {
  const { signInAction } = await import('./sign-in');
  request.headers = headers;
  let returned: Awaited<ReturnType<typeof signInAction>> | undefined;
  // Success redirects (to '/' here); a failure returns its code.
  const to = await redirectedTo(signInAction({ email, password }).then((r) => (returned = r)));
  if (to !== null || !returned || returned.ok) return { ok: true as const, code: undefined, to };
  return { ...returned, code: returned.code };
}

async function httpSignIn(email: string, password: string, headers: Headers): Promise<number> {
  const { getAuth } = await import('../auth/auth');
  headers.set('content-type', 'application/json');
  const res = await getAuth().handler(
    new Request('http://127.0.0.1:3000/api/auth/sign-in/email', { method: 'POST', headers, body: JSON.stringify({ email, password }) }),
  );
  return res.status;
}

describe('sign-in is limited per account and per client address on every path', () => {
  it('the action refuses the right password after 60 wrong ones, whatever address they came from', async () => {
    const email = TEST_USERS.viewer.email;
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 60; i++) codes.push((await signIn(email, `wrong-password-${i}`, from(`198.51.100.${i}`))).code);
    expect(codes.slice(0, SIGN_IN_PER_ACCOUNT.max)).toEqual(Array(SIGN_IN_PER_ACCOUNT.max).fill('invalid_credentials'));
    expect(codes.slice(SIGN_IN_PER_ACCOUNT.max)).toEqual(Array(60 - SIGN_IN_PER_ACCOUNT.max).fill('rate_limited'));
    const right = await signIn(email, TEST_PASSWORD, from('198.51.100.200'));
    expect(right).toMatchObject({ ok: false, code: 'rate_limited' });
    expect(right.ok ? '' : right.error).toMatch(/Too many sign-in attempts\. Try again in \d+ s\./);
  });

  it('the HTTP endpoint counts per account too, and rotating X-Forwarded-For changes nothing', async () => {
    const email = TEST_USERS.operator.email;
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_ACCOUNT.max + 3; i++) statuses.push(await httpSignIn(email, 'wrong-password', from('192.0.2.7')));
    expect(statuses.slice(0, SIGN_IN_PER_ACCOUNT.max).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(SIGN_IN_PER_ACCOUNT.max)).toEqual([429, 429, 429]);
    expect(await httpSignIn(email, TEST_PASSWORD, from('192.0.2.8'))).toBe(429);
  });

  it('one address is limited over all accounts, on both paths together, however X-Forwarded-For rotates', async () => {
    const results: (number | string | undefined)[] = [];
    for (let i = 0; i < SIGN_IN_PER_ADDRESS.max + 2; i++) {
      const email = `nobody-${i}@example.test`;
      results.push(i % 2 ? await httpSignIn(email, 'wrong-password', from('192.0.2.99')) : (await signIn(email, 'wrong-password', from('192.0.2.99'))).code);
    }
    expect(results.slice(0, SIGN_IN_PER_ADDRESS.max).every((r) => r === 401 || r === 'invalid_credentials')).toBe(true);
    expect(results.slice(SIGN_IN_PER_ADDRESS.max)).toEqual(['rate_limited', 429]);
    // The right password of a real account from that address is refused as well, and another address is not.
    expect((await signIn(TEST_USERS.reviewer.email, TEST_PASSWORD, from('192.0.2.99'))).code).toBe('rate_limited');
    expect((await signIn(TEST_USERS.reviewer.email, TEST_PASSWORD, from('192.0.2.100')))).toMatchObject({ ok: true, to: '/' });
  });

  it('without a server-stamped address every request shares one bucket, so X-Forwarded-For alone never helps', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_ADDRESS.max + 1; i++) {
      statuses.push(await httpSignIn(`someone-${i}@example.test`, 'wrong-password', new Headers({ 'x-forwarded-for': `198.18.0.${i}` })));
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the server stamps the client address it trusts (scripts/client-address.mjs)', () => {
  const req = (headers: Record<string, string>) => ({ headers: { ...headers } as Record<string, string | string[] | undefined>, socket: { remoteAddress: '::ffff:10.1.2.3' } });

  it('by default uses the TCP peer and overwrites what the client sent', () => {
    const r = req({ 'x-forwarded-for': '1.1.1.1', [CLIENT_ADDRESS_HEADER]: '2.2.2.2' });
    expect(stampClientAddress(r, false)).toBe('10.1.2.3');
    expect(r.headers[CLIENT_ADDRESS_HEADER]).toBe('10.1.2.3');
    expect(r.headers['x-forwarded-for']).toBe('10.1.2.3');
  });

  it('behind a trusted proxy uses the last X-Forwarded-For entry (the one the proxy appended)', () => {
    expect(stampClientAddress(req({ 'x-forwarded-for': '6.6.6.6, 198.51.100.4' }), true)).toBe('198.51.100.4');
    expect(stampClientAddress(req({}), true)).toBe('10.1.2.3');
  });
});
