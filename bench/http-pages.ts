/**
 * Server response time of the real pages over HTTP: the production server (next start) on a
 * throw-away SQLite database holding 100,000 runs and one 20,000-step run, signed in as a viewer.
 * Each sample is one GET of the whole server-rendered page, as a browser would ask for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../scripts/db-migrate.mjs';
import { openDatabase } from '../lib/db/client';
import { seedRuns } from '../lib/db/bench-db';
import { saveRun } from '../lib/db/runs-write';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { upsertUser } from '../lib/auth/users';
import { percentile, round, type Figure } from './stats';

const PORT = 3388;
const BASE = `http://127.0.0.1:${PORT}`;
const EMAIL = 'bench-viewer@example.com';
const PASSWORD = 'bench-password-0123456789';

async function waitForServer(child: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`${BASE}/sign-in`, { redirect: 'manual' });
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on ${BASE} within ${ms} ms`);
}

async function signIn(): Promise<string> {
  const r = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`sign-in failed: HTTP ${r.status} ${await r.text()}`);
  const cookies = r.headers.getSetCookie().map((c) => c.split(';')[0]);
  return cookies.join('; ');
}

async function sample(url: string, cookie: string, n: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    await r.arrayBuffer();
    const t = performance.now() - t0;
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}`);
    ms.push(t);
  }
  return ms;
}

export async function benchHttpPages(repeat: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-http-'));
  const url = `file:${path.join(dir, 'bench.db')}`;
  let server: ChildProcess | null = null;
  try {
    await migrate({ url });
    const db = openDatabase(url);
    let longId: string;
    try {
      await seedRuns(db, 100_000);
      const long = makeRun({ runId: 'long', rounds: 10_000, recordInputs: false });
      long.usage.perCall = [];
      longId = await saveRun(long, makeMeta(), db);
      await upsertUser(db, { email: EMAIL, password: PASSWORD, roles: ['viewer'] });
    } finally {
      await db.close();
    }
    server = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, PORT: String(PORT), DATABASE_URL: url, BETTER_AUTH_SECRET: 'bench-secret-0123456789-0123456789-abcdef', BETTER_AUTH_URL: BASE },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForServer(server, 300_000);
    const cookie = await signIn();
    const n = Math.max(20, repeat * 10);
    const pages: [string, string, string][] = [
      ['runs page, 100,000 runs, p95', `${BASE}/runs`, '≤ 150 ms'],
      ['runs page filtered (setting naive_retry), p95', `${BASE}/runs?setting=naive_retry`, '≤ 150 ms'],
      ['runs page text search, p95', `${BASE}/runs?q=kind%2042`, '≤ 150 ms'],
      ['replay page, 20,000-step run, p95', `${BASE}/runs/${longId}`, '≤ 300 ms'],
      // The replay fetches its waterfall after the page (issue 26): the same run's bars, packed.
      ['replay waterfall, 20,000-step run, p95', `${BASE}/api/runs/${longId}/waterfall`, '≤ 300 ms'],
    ];
    const figures: Figure[] = [];
    for (const [name, pageUrl, target] of pages) {
      await sample(pageUrl, cookie, 3); // warm-up: compile and cache
      const ms = await sample(pageUrl, cookie, n);
      figures.push({ name: `${name} (HTTP)`, value: round(percentile(ms, 95), 1), unit: 'ms', target, detail: `p50 ${round(percentile(ms, 50), 1)} ms, ${n} GETs` });
    }
    return figures;
  } finally {
    server?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
