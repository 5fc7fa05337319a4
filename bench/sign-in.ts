/**
 * `npm run bench -- --only signin`: how many sign-in attempts the whole stack (better-auth's handler,
 * the before hook, the database limiter) lets through in one minute, per account and per client
 * address, on a throw-away SQLite database. A burst well inside one window, so "allowed" is the per-minute
 * figure; X-Forwarded-For rotates on every attempt, as an attacker's would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../scripts/db-migrate.mjs';
import { CLIENT_ADDRESS_HEADER } from '../scripts/client-address.mjs';
import { openDatabase } from '../lib/db/core/client';
import type { Figure } from './stats';

const ATTEMPTS = 60;
const PASSWORD = 'bench-password-not-secret';

export async function benchSignIn(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-signin-'));
  const url = `file:${path.join(dir, 'bench.db')}`;
  await migrate({ url });
  const db = openDatabase(url);
  try {
    const { upsertUser } = await import('../lib/auth/users');
    const { createAuth } = await import('../lib/auth/auth');
    await upsertUser(db, { email: 'target@bench.test', password: PASSWORD, roles: ['viewer'] });
    const auth = createAuth(db);
    let n = 0;
    const attempt = async (email: string, password: string, address: string) => {
      const res = await auth.handler(
        new Request('http://127.0.0.1:3000/api/auth/sign-in/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: address, 'x-forwarded-for': `203.0.113.${++n % 250}` },
          body: JSON.stringify({ email, password }),
        }),
      );
      return res.status;
    };
    const figures: Figure[] = [];

    // One account, wrong passwords from a new address each time, then the right one.
    let t0 = performance.now();
    const account: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++) account.push(await attempt('target@bench.test', `wrong-${i}`, `198.51.100.${i}`));
    const accountS = (performance.now() - t0) / 1000;
    const rightAfter = await attempt('target@bench.test', PASSWORD, '198.51.100.250');
    figures.push({
      name: 'sign-in attempts allowed per minute per account',
      value: account.filter((s) => s !== 429).length,
      unit: 'attempts',
      detail: `${ATTEMPTS} wrong passwords in ${accountS.toFixed(1)} s from ${ATTEMPTS} addresses; the right one after them answered ${rightAfter}`,
    });

    // One address, a different account each time.
    t0 = performance.now();
    const address: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++) address.push(await attempt(`nobody-${i}@bench.test`, 'wrong', '192.0.2.1'));
    figures.push({
      name: 'sign-in attempts allowed per minute per address',
      value: address.filter((s) => s !== 429).length,
      unit: 'attempts',
      detail: `${ATTEMPTS} attempts on ${ATTEMPTS} accounts in ${((performance.now() - t0) / 1000).toFixed(1)} s, X-Forwarded-For rotating`,
    });
    return figures;
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
