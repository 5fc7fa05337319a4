/**
 * No page shows (or sends in its RSC payload or the data it fetches) a server path, a secret or the
 * database file (issue 36): every page, opened as the admin who sees the most, is searched — its HTML and
 * every document and fetch answer of our origin while it loads — for the repository's absolute path, the
 * datasets' directories, the database file, the policy file and the secrets the e2e server holds; so are
 * the downloads (a run, a suite, the runs table).
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { runFromLauncher, runMatrix } from '../support/helpers';
import { HOSTILE_DATASET_ID } from '../support/hostile-dataset';
import { E2E_PROVIDER_KEY } from '../support/live';
import { startSecondServer } from '../support/second-server';
import { E2E_AUTH_SECRET, E2E_OTLP_TOKEN } from '../support/users';

/** What no page may contain, each with what it is (the report names it). */
function forbidden(): [string, string][] {
  const env = process.env;
  return [
    [process.cwd(), 'the repository (and the bundled dataset) on the server'],
    [path.resolve('..', 'shared'), "the course dataset's directory"],
    [path.dirname(env.E2E_HOSTILE_DATASET!), "an extra dataset's directory"],
    [env.E2E_DB_FILE!, 'the database file'],
    [env.E2E_POLICY_FILE!, 'the policy file'],
    [E2E_AUTH_SECRET, 'the session secret'],
    [E2E_PROVIDER_KEY, "a provider's API key"],
    [E2E_OTLP_TOKEN, "the OTLP receiver's token"],
  ];
}

/** The forbidden things `text` (what `url` answered) contains, as `url: what`. */
function leaksIn(text: string, url: string): string[] {
  return forbidden()
    .filter(([needle]) => text.includes(needle))
    .map(([, what]) => `${url}: ${what}`);
}

/** The forbidden things the page at `url` contains, as `url: what`. */
async function leaksOf(get: (url: string) => Promise<string>, url: string): Promise<string[]> {
  const html = await get(url);
  expect(html.length, url).toBeGreaterThan(500);
  return leaksIn(html, url);
}

/** Opens `url` in the browser and returns what every document and fetch answer of our origin held, until the network is idle. */
async function answersWhileLoading(page: Page, url: string): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const pending: Promise<string[]>[] = [];
  const onResponse = (res: import('@playwright/test').Response) => {
    const type = res.request().resourceType();
    if (!res.url().startsWith(origin) || !['document', 'fetch', 'xhr'].includes(type)) return;
    pending.push(res.text().then((t) => leaksIn(t, `${url} → ${new URL(res.url()).pathname}`), () => []));
  };
  page.on('response', onResponse);
  try {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  return (await Promise.all(pending)).flat();
}

test('no page shows a server path, the database file or a secret, to an admin either', async ({ page }) => {
  // Four runs (one on the extra dataset, one waiting for approval), one matrix, then every page.
  test.setTimeout(480_000);
  await runMatrix(page);
  const suite = new URL(page.url()).searchParams.get('suite')!;
  const a = await runFromLauncher(page, { caseId: 'S008' });
  const b = await runFromLauncher(page, { caseId: 'S008', weaknesses: ['ambiguous_tool_desc'] });
  await runFromLauncher(page, { caseId: 'S024', governed: true });
  await page.getByRole('link', { name: 'Open the approval request' }).click();
  const approval = new URL(page.url()).pathname;
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  await page.locator('#dataset').selectOption(HOSTILE_DATASET_ID);
  await page.getByLabel('My own query').check();
  await page.locator('#query').fill('Where is SKU-2001 stored?');
  await page.getByRole('button', { name: 'Run and replay' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f]+(\?transition=\d+)?$/);
  const extra = new URL(page.url()).pathname;

  const pages = [
    '/',
    '/runs',
    `/runs/${a}`,
    `/runs/${b}?transition=3`,
    extra,
    `/runs?dataset=${HOSTILE_DATASET_ID}`,
    '/matrix',
    `/matrix?suite=${suite}`,
    '/instructor',
    `/compare?a=${a}&b=${b}`,
    '/approvals',
    approval,
    '/effects',
    '/judge',
    '/label-queue',
    '/golden-sets',
    '/sessions',
    '/tools',
    '/webhooks',
    '/no-such-page',
  ];
  const get = async (url: string) => (await page.request.get(url)).text();
  const found: string[] = [];
  for (const url of pages) {
    found.push(...(await leaksOf(get, url)));
    found.push(...(await answersWhileLoading(page, url)));
  }
  // What a user downloads: a run, a suite, the runs table.
  for (const url of [`/api/runs/${a}/export`, `/api/suites/${suite}/export`, '/api/runs/export']) found.push(...leaksIn(await get(url), url));
  const signedOut = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } });
  found.push(...(await leaksOf(async (url) => (await signedOut.request.get(new URL(url, page.url()).toString())).text(), '/sign-in')));
  await signedOut.close();

  // A server whose calibration set is missing says so on the Judge page, naming the file but not where it was looked for.
  const server = await startSecondServer({ STOCKROOM_CALIBRATION_SET: path.resolve('.data', 'no-calibration-here', 'calibration_v1.jsonl') });
  try {
    found.push(...(await leaksOf(async (url) => (await page.request.get(`${server.url}${url}`)).text(), '/judge')));
  } finally {
    await server.stop();
  }
  expect(found).toEqual([]);
});
