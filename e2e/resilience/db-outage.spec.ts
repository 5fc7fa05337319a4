/**
 * Issue 32, the web server during a PostgreSQL restart: a production server (scripts/serve.mjs on
 * the e2e build) on a PostgreSQL cluster this spec starts on its own port, so stopping it touches no
 * one else. While it is down a page answers 503 with Retry-After and says "The database is
 * unavailable", with no error digest; /api/health answers 503; once it is back the open page comes
 * back by itself, without anyone reloading it.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { migrate } from '../../scripts/db-migrate.mjs';
import { pgClusterSkipReason, startPgCluster, type PgCluster } from '../../lib/db/testing/pg-cluster';
import { startSecondServer, type SecondServer } from '../support/second-server';

const skip = pgClusterSkipReason();
const EMAIL = 'outage-admin@example.test';
const PASSWORD = 'outage-password-not-secret';

test.describe('the web server while its PostgreSQL restarts', () => {
  test.skip(skip !== null, skip ?? '');
  test.use({ storageState: { cookies: [], origins: [] } });
  let cluster: PgCluster;
  let server: SecondServer;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: `${cluster.server}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE outage');
    await admin.end();
    const url = `${cluster.server}/outage`;
    await migrate({ url });
    execFileSync(path.resolve('node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'cli/stockroom.ts', 'admin', 'create', '--email', EMAIL, '--password', PASSWORD, '--tenant', 'kittiwake'], {
      env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: '1' },
      stdio: 'pipe',
    });
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    server = await startSecondServer({ DATABASE_URL: url, PORT: String(port), BETTER_AUTH_URL: `http://127.0.0.1:${port}` });
  });
  test.afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  test('answers 503 "the database is unavailable" with no digest while it is down, and comes back by itself', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-as').waitFor();

    const up = await page.goto(`${server.url}/runs`);
    expect(up?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible();

    await cluster.stop();
    const down = await page.goto(`${server.url}/runs`);
    expect(down?.status()).toBe(503);
    expect(down?.headers()['retry-after']).toMatch(/^\d+$/);
    await expect(page.getByTestId('db-unavailable')).toContainText('The database is unavailable, retrying.');
    await expect(page.locator('body')).not.toContainText(/digest|Application error|server-side exception/i);
    const health = await page.request.get(`${server.url}/api/health`);
    expect(health.status()).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, database: { ok: false, reason: 'unreachable' } });

    await cluster.start();
    const backAt = Date.now();
    // Nobody reloads: the page asks /api/health and comes back once the database answers.
    await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible({ timeout: 60_000 });
    // A figure for the report, not an assertion.
    console.log(`db-outage: the open page came back ${((Date.now() - backAt) / 1000).toFixed(1)} s after PostgreSQL was started again`);
    expect((await page.request.get(`${server.url}/api/health`)).status()).toBe(200);
  });
});
