/**
 * `npm run bench -- --only firstdemobrowser`: the README's first demo as a new user waits for it
 * (issue 36). Each repetition is a fresh clone's first start: a new empty SQLite database (migrated,
 * one admin+operator user, no run, no suite), the production server (scripts/start.mjs, built when
 * stale) started cold, Debian's Chromium signed in on the home page. From the click on "Run the matrix
 * on the bundled dataset" to:
 *   the matrix page     its URL and the progress or the table rendered
 *   the complete table  the finished suite's delta table (every setting, no partial row), its last
 *                       cell drawn: what the user waited for
 * Figures are polled every frame (requestAnimationFrame), as bench/browser.ts does. BENCH_FIRSTDEMO_PORT
 * moves the server's port. Measures, never asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { migrate } from '../scripts/db-migrate.mjs';
import { openDatabase } from '../lib/db/core/client';
import { upsertUser } from '../lib/auth/users';
import { MATRIX_SETTINGS } from '../lib/charts/matrix-view';
import { interactive, signIn, waitForServer } from './browser';
import { median, round, type Figure } from './stats';

const PORT = Number(process.env.BENCH_FIRSTDEMO_PORT ?? 3393);
const USER = { email: 'first-demo@example.com', password: 'first-demo-password-0123456789' };

interface Sample {
  page: number;
  table: number;
  /** The suite's own time, created → finished as the server recorded it (what the table waited on). */
  suite: number;
  /** Click → the suite row created (the click, the action), by the wall clock the server shares. */
  action: number;
  /** The suite finished → its complete table drawn (being told, and drawing it). */
  told: number;
  /** CPU the server's processes spent from the click to the complete table (null: no /proc). */
  cpu: number | null;
  /** The suite finished → the page got the stream's `done` event (null: it never did, the poll told it). */
  event: number | null;
}

/** CPU time (user + system, ms) of a process and its descendants, from /proc (Linux); null elsewhere. */
function treeCpuMs(pid: number): number | null {
  const ticks = (p: number): number => {
    const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let children: number[] = [];
    try {
      children = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // no children file: counted alone
    }
    return Number(fields[11]) + Number(fields[12]) + children.reduce((n, c) => n + ticks(c), 0);
  };
  try {
    return ticks(pid) * 10; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** One fresh clone: empty database, cold server, the click, the complete table. */
async function once(browser: Browser): Promise<Sample> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-bench-first-demo-'));
  const url = `file:${path.join(dir, 'demo.db')}`;
  const base = `http://127.0.0.1:${PORT}`;
  let server: ChildProcess | null = null;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    await migrate({ url });
    const db = openDatabase(url);
    try {
      await upsertUser(db, { email: USER.email, password: USER.password, roles: ['admin', 'operator', 'reviewer'] });
    } finally {
      await db.close();
    }
    server = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, PORT: String(PORT), DATABASE_URL: url, BETTER_AUTH_SECRET: 'bench-secret-0123456789-0123456789-abcdef', BETTER_AUTH_URL: base },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForServer(base, server, 900_000);
    const page = await context.newPage();
    // When the suite's event stream says `done`, by the clock the server shares (being told, apart from drawing).
    await page.addInitScript(() => {
      const Native = window.EventSource;
      window.EventSource = class extends Native {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          this.addEventListener('status', (e) => {
            if ((JSON.parse((e as MessageEvent<string>).data) as { status?: string }).status === 'done') (window as unknown as { __doneAt: number }).__doneAt = Date.now();
          });
        }
      };
    });
    await signIn(page, base, USER);
    await page.goto(`${base}/`);
    await interactive(page, '[data-testid=start-demo]');
    const cpu0 = treeCpuMs(server.pid!);
    const clickedAt = Date.now();
    const t0 = performance.now();
    await page.getByTestId('start-demo').click();
    await page.waitForFunction(() => location.pathname === '/matrix' && document.querySelector('section[aria-label=Progress], [data-testid=delta-table]') !== null, undefined, { polling: 'raf', timeout: 120_000 });
    const pageMs = performance.now() - t0;
    // The finished suite's table: every setting's row, none partial, and the last row's last cell drawn.
    await page.waitForFunction(
      (settings) => {
        const table = document.querySelector('[data-testid=delta-table]');
        if (!table || !document.querySelector('[data-testid=matrix-harness]')) return false;
        const rows = table.querySelectorAll('tbody tr');
        if (rows.length !== settings || table.querySelector('tr[data-partial]')) return false;
        return (rows[rows.length - 1]?.lastElementChild?.textContent ?? '').trim() !== '';
      },
      MATRIX_SETTINGS.length,
      { polling: 'raf', timeout: 300_000 },
    );
    const tableMs = performance.now() - t0;
    const cpu1 = treeCpuMs(server.pid!);
    const doneAt = await page.evaluate(() => (window as unknown as { __doneAt?: number }).__doneAt ?? null);
    const drawnAt = clickedAt + tableMs;
    const check = openDatabase(url);
    try {
      const suite = await check.prisma.suiteRun.findFirstOrThrow({ select: { createdAt: true, finishedAt: true } });
      const finished = suite.finishedAt?.getTime() ?? NaN;
      return { page: pageMs, table: tableMs, suite: finished - suite.createdAt.getTime(), action: suite.createdAt.getTime() - clickedAt, told: drawnAt - finished, cpu: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null, event: doneAt === null ? null : doneAt - finished };
    } finally {
      await check.close();
    }
  } finally {
    await context.close();
    if (server?.pid) {
      server.kill('SIGTERM');
      await new Promise((r) => (server!.exitCode !== null ? r(null) : server!.once('exit', r)));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchFirstDemoBrowser(repeat: number): Promise<Figure[]> {
  const n = repeat;
  const browser = await chromium.launch({ executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const samples: Sample[] = [];
  const loads: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      samples.push(await once(browser));
      loads.push(os.loadavg()[0]!);
    }
  } finally {
    await browser.close();
  }
  const load = `load average ${round(Math.min(...loads), 1)}–${round(Math.max(...loads), 1)} on ${os.cpus().length} cores`;
  const list = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
  return [
    { name: 'first demo in the browser: click → matrix page', value: round(median(samples.map((s) => s.page)), 0), unit: 'ms', detail: `median of ${n} fresh clones; ${list(samples.map((s) => s.page))} ms; ${load}` },
    { name: 'first demo in the browser: click → complete table', value: round(median(samples.map((s) => s.table)), 0), unit: 'ms', target: '≤ 2000 ms', detail: `median of ${n} fresh clones; ${list(samples.map((s) => s.table))} ms; ${load}` },
    { name: 'first demo: the suite on the server, created → finished', value: round(median(samples.map((s) => s.suite)), 0), unit: 'ms', detail: `${list(samples.map((s) => s.suite))} ms (the rest of the table's wait is the click, the page and being told)` },
    {
      name: 'first demo: server CPU from the click to the complete table',
      value: samples.every((s) => s.cpu !== null) ? round(median(samples.map((s) => s.cpu!)), 0) : NaN,
      unit: 'ms',
      detail: `user + system of the server's processes (steadier than the wall times under load); ${samples.map((s) => (s.cpu === null ? 'unknown' : Math.round(s.cpu))).join(', ')} ms`,
    },
    { name: 'first demo: click → suite created (the action)', value: round(median(samples.map((s) => s.action)), 0), unit: 'ms', detail: `${list(samples.map((s) => s.action))} ms` },
    {
      name: "first demo: suite finished → the page's event stream says done",
      value: samples.every((s) => s.event !== null) ? round(median(samples.map((s) => s.event!)), 0) : NaN,
      unit: 'ms',
      detail: `the rest of being told is drawing the table; ${samples.map((s) => (s.event === null ? 'never' : Math.round(s.event))).join(', ')} ms`,
    },
    { name: 'first demo: suite finished → complete table drawn (being told)', value: round(median(samples.map((s) => s.told)), 0), unit: 'ms', detail: `${list(samples.map((s) => s.told))} ms` },
  ];
}
