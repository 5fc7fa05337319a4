/**
 * Tenant isolation in the browser (issue 9 §1): every page, discovered from app/**\/page.tsx, shows a
 * user of another tenant (its admin included) nothing of kittiwake's runs, approvals or effects —
 * an id page answers 404 exactly like a missing id. Also: the "ungoverned" label on the runs list,
 * replay header and compare, and the tenant switcher of a user with two tenants.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { E2E_OTLP_TOKEN, storageStateOf, type E2eUser } from '../support/users';

/** Every page route of the app, from its files (`app/runs/[id]/page.tsx` → `/runs/[id]`). */
function discoverPages(dir = path.resolve('app'), base = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name.startsWith('_') || e.name === 'api' ? [] : discoverPages(path.join(dir, e.name), `${base}/${e.name}`);
    return e.name === 'page.tsx' ? [base || '/'] : [];
  });
}

/** Pages anyone may open without a session. */
const PUBLIC_PAGES = new Set(['/sign-in']);

const kittiwake = { governedRun: '', plainRun: '', writeRun: '', approval: '', session: '' };
/** An imported agent trace carrying `session.id` (the fixture's own value), sent with kittiwake's ingest token. */
const SESSION_FIXTURE = { file: 'lib/otel/testing/fixtures/openinference-openai-agent.json', session: 'session-weather-42' };

async function as(browser: Browser, user: E2eUser): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(user) });
  return context.newPage();
}

/** The URLs that show kittiwake's objects: each id page with its object, each list page, compare with both runs. */
function urlsFor(route: string): string[] {
  if (route === '/runs/[id]') return [`/runs/${kittiwake.governedRun}`, `/runs/${kittiwake.plainRun}`];
  if (route === '/approvals/[id]') return [`/approvals/${kittiwake.approval}`];
  if (route === '/compare') return [`/compare?a=${kittiwake.governedRun}&b=${kittiwake.plainRun}`, '/compare'];
  if (route === '/sessions/[id]') return [`/sessions/${kittiwake.session}`];
  if (route === '/effects') return ['/effects', `/effects?runId=${kittiwake.writeRun}`];
  if (route.includes('[')) throw new Error(`add the kittiwake object for ${route} to this spec`);
  return [route];
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  const admin = await as(browser, 'admin');
  kittiwake.governedRun = await runFromLauncher(admin, { caseId: 'S024', governed: true });
  kittiwake.writeRun = await runFromLauncher(admin, { caseId: 'S022', governed: true });
  kittiwake.plainRun = await runFromLauncher(admin, { caseId: 'S001' });
  await admin.goto(`/runs/${kittiwake.governedRun}`);
  const href = await admin.getByRole('link', { name: 'Open the approval request' }).getAttribute('href');
  kittiwake.approval = href?.split('/').pop() ?? '';
  expect(kittiwake.approval).toMatch(/^apr_/);
  const imported = await admin.request.post('/api/otlp/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` },
    data: fs.readFileSync(SESSION_FIXTURE.file),
  });
  expect(imported.status()).toBe(200);
  kittiwake.session = SESSION_FIXTURE.session;
  await admin.context().close();
});

test('finds every page of the app', () => {
  expect(discoverPages()).toEqual(expect.arrayContaining(['/', '/runs', '/runs/[id]', '/approvals', '/approvals/[id]', '/effects', '/compare', '/matrix', '/instructor', '/sessions/[id]', '/label-queue', '/golden-sets']));
});

test("kittiwake's admin sees its runs, approval and effects on every page (so the checks below can fail)", async ({ browser }) => {
  const page = await as(browser, 'admin');
  for (const route of discoverPages().filter((r) => !PUBLIC_PAGES.has(r))) {
    for (const url of urlsFor(route)) expect((await page.goto(url))!.status(), url).toBe(200);
  }
  await page.goto(`/effects?runId=${kittiwake.writeRun}`);
  await expect(page.locator('main')).toContainText(kittiwake.writeRun.slice(-8));
  await page.goto('/runs');
  await expect(page.locator('main')).toContainText(kittiwake.plainRun.slice(-8));
  await page.context().close();
});

for (const user of ['puffinReviewer', 'puffinAdmin'] as const) {
  test(`${user} gets 404 for kittiwake's id pages and sees none of its objects on any page`, async ({ browser }) => {
    const page = await as(browser, user);
    const ids = Object.values(kittiwake);
    for (const route of discoverPages().filter((r) => !PUBLIC_PAGES.has(r))) {
      for (const url of urlsFor(route)) {
        const res = await page.goto(url);
        if (route.includes('[')) {
          // Exactly like a missing id.
          expect(res!.status(), url).toBe(404);
          expect((await page.context().request.get(url.replace(/.{4}$/, 'zzzz'))).status(), `${url} (missing id)`).toBe(404);
          continue;
        }
        expect(res!.status(), url).toBe(200);
        // The visible page. Form fields, and compare's "Run A (<id>) does not exist.", echo the caller's
        // own input exactly as for a missing id; anything else showing an id is a leak.
        if (url.includes('?a=')) await expect(page.locator('main')).toContainText(`Run A (${kittiwake.governedRun}) does not exist.`);
        const text = (await page.locator('main').innerText()).replace(/Run [AB] \([0-9a-z]+\) does not exist\./g, '');
        for (const id of ids) expect(text.includes(id.slice(-8)), `${url} shows ${id}`).toBe(false);
        expect(await page.content(), url).not.toContain('Restock 750 units of SKU-2027');
      }
    }
    await page.goto('/effects');
    await expect(page.getByTestId('effects-empty')).toBeVisible();
    await page.context().close();
  });
}

test('labels ungoverned runs "ungoverned" in the runs list, the replay header and compare', async ({ browser }) => {
  const page = await as(browser, 'admin');
  await page.goto('/runs');
  await expect(page.locator('tr', { hasText: kittiwake.plainRun.slice(-8) }).getByTestId('ungoverned')).toBeVisible();
  await expect(page.locator('tr', { hasText: kittiwake.writeRun.slice(-8) }).getByTestId('ungoverned')).toHaveCount(0);
  await page.goto(`/runs/${kittiwake.plainRun}`);
  await expect(page.getByLabel('Run summary').getByTestId('ungoverned')).toBeVisible();
  await page.goto(`/runs/${kittiwake.writeRun}`);
  await expect(page.getByLabel('Run summary').getByTestId('ungoverned')).toHaveCount(0);
  await page.goto(`/compare?a=${kittiwake.writeRun}&b=${kittiwake.plainRun}`);
  await expect(page.getByTestId('ungoverned')).toHaveCount(1);
  await page.context().close();
});

test('a member of two tenants switches between them in the header, and sees only the chosen tenant', async ({ browser }) => {
  const page = await as(browser, 'multi');
  await page.goto('/runs');
  const switcher = page.getByTestId('tenant-switcher');
  await expect(switcher).toHaveValue('kittiwake');
  await expect(page.locator('main')).toContainText(kittiwake.plainRun.slice(-8));
  await switcher.selectOption('puffin');
  await expect(page.getByTestId('signed-in-as')).toContainText('puffin');
  await expect(page.locator('main')).not.toContainText(kittiwake.plainRun.slice(-8));
  expect((await page.goto(`/runs/${kittiwake.plainRun}`))!.status()).toBe(404);
  // The choice is a cookie: it holds on the next page, and the server re-checks it against the memberships.
  await page.goto('/runs');
  await expect(page.getByTestId('tenant-switcher')).toHaveValue('puffin');
  await page.getByTestId('tenant-switcher').selectOption('kittiwake');
  await expect(page.getByTestId('signed-in-as')).toContainText('kittiwake');
  await page.context().close();
});
