/**
 * Decisions on PostgreSQL (issue 42, "pages that tell the truth"), against a second production server
 * on a PostgreSQL cluster of the test's own, with no worker running: an approved run says it waits for
 * a worker, not for approval; and a decision sent while the database is stopped is answered "not
 * recorded … send it again" (never an error reference), after which sending it again works.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { startPgCluster, type PgCluster } from '../../lib/db/testing/pg-cluster';
import { startSecondServer, type SecondServer } from '../support/second-server';
import { E2E_PASSWORD, E2E_USERS } from '../support/users';

test.describe.configure({ mode: 'serial' });

let pg: PgCluster;
let pgUrl: string;
let server: SecondServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pg = await startPgCluster();
  pgUrl = await pg.createDatabase('stockroom');
  const env = { ...process.env, DATABASE_URL: pgUrl, CHECKPOINT_DISABLE: '1' };
  execFileSync(process.execPath, ['scripts/db-migrate.mjs'], { env, stdio: 'pipe' });
  const tsx = path.resolve('node_modules', '.bin', 'tsx');
  for (const user of ['operator', 'reviewer'] as const) {
    const u = E2E_USERS[user];
    execFileSync(tsx, ['--conditions=react-server', 'cli/stockroom.ts', 'admin', 'create', '--email', u.email, '--password', E2E_PASSWORD, '--role', u.roles, '--tenant', 'kittiwake'], { env, stdio: 'pipe' });
  }
  server = await startSecondServer({ DATABASE_URL: pgUrl });
});

test.afterAll(async () => {
  await server?.stop();
  await pg?.destroy();
});

/** Signs `user` in on the PostgreSQL server through the sign-in form. */
async function signIn(browser: Browser, user: 'operator' | 'reviewer'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server.url, storageState: { cookies: [], origins: [] } })).newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(E2E_USERS[user].email);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-as').waitFor();
  return page;
}

async function pausedRequest(browser: Browser): Promise<{ runId: string; request: string }> {
  const operator = await signIn(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId: 'S024', governed: true });
  const request = (await operator.getByRole('link', { name: 'Open the approval request' }).getAttribute('href'))!;
  await operator.context().close();
  return { runId, request };
}

test('approved with no worker running, the request, the queue and the run say it waits for a worker, not for approval', async ({ browser }) => {
  const { runId, request } = await pausedRequest(browser);
  const reviewer = await signIn(browser, 'reviewer');
  await reviewer.goto(request);
  await reviewer.getByLabel(/Reason/).fill('Supplier confirmed.');
  await reviewer.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.getByTestId('decide-outcome')).toContainText('No worker is running yet');
  await expect(reviewer.getByTestId('request-outcome')).toHaveText('approved — waiting for a worker (none running)');

  await reviewer.goto('/approvals?tab=approved');
  const row = reviewer.getByTestId('approvals-table').locator('tr', { has: reviewer.locator(`a[href="${request}"]`) });
  await expect(row.getByTestId('request-outcome')).toHaveText('approved — waiting for a worker (none running)');

  await reviewer.goto(`/runs/${runId}`);
  await expect(reviewer.getByTestId('request-outcome')).toHaveText('approved — waiting for a worker (none running)');
  await expect(reviewer.getByTestId('waiting-banner')).toHaveCount(0);
  await expect(reviewer.getByText('waiting for approval', { exact: true })).toHaveCount(0);
  await expect(reviewer.getByTestId('final-answer')).not.toContainText('until a reviewer decides');
  await reviewer.goto('/runs');
  const runRow = reviewer.getByTestId('runs-table').locator('tr', { has: reviewer.locator(`a[href="/runs/${runId}"]`) });
  await expect(runRow.getByTestId('request-outcome')).toHaveText('approved — waiting for a worker (none running)');
  await reviewer.context().close();
});

test('a decision sent while the database is stopped is not recorded, says so without an error reference, and sending it again works', async ({ browser }) => {
  test.setTimeout(180_000);
  const { request } = await pausedRequest(browser);
  const reviewer = await signIn(browser, 'reviewer');
  await reviewer.goto(request);
  await reviewer.getByLabel(/Reason/).fill('Supplier confirmed.');
  await pg.stop();
  try {
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    const outcome = reviewer.getByTestId('decide-outcome');
    await expect(outcome).toHaveText('Your decision was not recorded: the database is unavailable. Nothing changed; send it again.', { timeout: 60_000 });
    await expect(outcome).not.toContainText('ref ');
  } finally {
    await pg.start();
  }
  // Nothing changed: the request is still open, and the same decision sent again goes through
  // (the first attempt after the restart may still meet a connection the restart closed: it says so, and the next one works).
  await expect(async () => {
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    await expect(reviewer.getByTestId('decide-outcome')).toHaveText(/^Approved\. The run resumes on a worker/, { timeout: 20_000 });
  }).toPass({ timeout: 90_000 });
  await expect(reviewer.getByTestId('decisions')).toContainText('approved');
  await reviewer.context().close();
});
