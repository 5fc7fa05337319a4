/**
 * Issue 9 §6, in the browser against the production server: no other origin can frame a signed-in
 * page (observed: a page on another port framed the approval page with its Approve button live), no
 * page raises a Content-Security-Policy violation under the nonce CSP (mermaid, recharts and the
 * theme still work), sign-in over HTTP is limited per account however X-Forwarded-For rotates, and an
 * action body over 1 MB gets a clear 413 instead of a bare 500.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { runFromLauncher, runMatrix } from '../support/helpers';

/**
 * Collects CSP violations (the page's own securitypolicyviolation events and Chromium's "Refused to …"
 * console errors) and uncaught page errors, from the first script on. Other console errors (a 404 for
 * a resource) are not this test's subject.
 */
async function watchCsp(page: Page): Promise<{ problems: () => Promise<string[]> }> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
  });
  return {
    problems: async () => [...errors, ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations))],
  };
}

/** Serves one HTML page on another port of the same host. */
async function otherOrigin(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a page on another port cannot frame the signed-in approval page', async ({ page, baseURL }) => {
  await runFromLauncher(page, { caseId: 'S024', governed: true });
  const href = await page.getByTestId('waiting-banner').getByRole('link', { name: 'Open the approval request' }).getAttribute('href');
  const target = new URL(href!, baseURL).href;
  const response = await page.request.get(target);
  expect(response.headers()['x-frame-options']).toBe('DENY');
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

  const refusals: string[] = [];
  page.on('console', (m) => {
    if (/frame-ancestors|X-Frame-Options/.test(m.text())) refusals.push(m.text());
  });
  const attacker = await otherOrigin(`<!doctype html><title>waiting</title><iframe id="victim" src="${target}" width="900" height="700" onload="document.title='frame settled'"></iframe>`);
  try {
    await page.goto(attacker.url);
    await expect(page).toHaveTitle('frame settled');
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(page.frames().find((f) => f !== page.mainFrame())?.url()).not.toBe(target);
    await expect(page.frameLocator('#victim').getByRole('button', { name: 'Approve' })).toHaveCount(0);
  } finally {
    await attacker.close();
  }
});

test('no page raises a CSP violation or an uncaught error; mermaid, the charts and the pages still work under the nonce CSP', async ({ page, browser, baseURL }) => {
  const csp = await watchCsp(page);
  // Observed: two "Failed to load resource: … 404" console errors, Chromium's own /favicon.ico request
  // on the replay page (browser-initiated, so it shows as a console error, not a page response).
  const notFound: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Failed to load resource.*404/.test(m.text())) notFound.push(`${m.location().url} (on ${page.url()})`);
  });
  const visited: Record<string, string[]> = {};
  const visit = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
    expect(page.url()).toContain(path.split('?')[0]);
    const response = await page.request.get(path);
    expect(response.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
    expect(response.headers()['content-security-policy']).not.toContain('unsafe-eval');
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(response.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
    visited[path] = await csp.problems();
  };

  const runA = await runFromLauncher(page, { caseId: 'S001' });
  const runB = await runFromLauncher(page, { caseId: 'S001', weaknesses: ['ambiguous_tool_desc'] });
  await runMatrix(page);
  const matrixUrl = new URL(page.url()).pathname + new URL(page.url()).search;

  await visit('/', async () => expect(page.locator('main')).toBeVisible());
  await visit('/runs', async () => expect(page.getByTestId('runs-table')).toBeVisible());
  await visit(`/runs/${runA}`, async () => expect(page.getByTestId('state-diagram').locator('svg')).toBeVisible());
  await visit(matrixUrl, async () => expect(page.locator('.recharts-surface').first()).toBeVisible());
  await visit('/instructor', async () => expect(page.locator('main')).toBeVisible());
  await visit(`/compare?a=${runA}&b=${runB}`, async () => expect(page.locator('main')).toBeVisible());
  await visit('/approvals', async () => expect(page.locator('main')).toBeVisible());
  await visit('/effects', async () => expect(page.locator('main')).toBeVisible());
  // Server actions still run under the CSP: start a run from the launcher once more.
  await runFromLauncher(page, { query: 'Where is SKU-2001 stored?' });
  visited['run launcher'] = await csp.problems();

  // Signed out: the sign-in page.
  const anon = await browser.newContext({ storageState: { cookies: [], origins: [] }, baseURL });
  const signIn = await anon.newPage();
  const anonCsp = await watchCsp(signIn);
  await signIn.goto('/sign-in');
  await expect(signIn.getByRole('button', { name: 'Sign in' })).toBeVisible();
  visited['/sign-in'] = await anonCsp.problems();
  await anon.close();

  for (const [path, problems] of Object.entries(visited)) expect(problems, path).toEqual([]);
  expect(notFound).toEqual([]);
});

test('sign-in over HTTP is limited per account, and rotating X-Forwarded-For does not get past it', async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const email = `brute-force-target-${Date.now()}@e2e.test`;
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await api.post('/api/auth/sign-in/email', {
      headers: { origin: baseURL!, 'x-forwarded-for': `198.51.100.${i}`, 'x-stockroom-client-address': `198.51.100.${i}` },
      data: { email, password: `wrong-password-${i}` },
    });
    statuses.push(res.status());
  }
  expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  expect(statuses.slice(5)).toEqual([429, 429, 429]);
  await api.dispose();
});

test('an action body over 1 MB is refused with a clear 413, not a bare 500', async ({ page }) => {
  await page.goto('/runs');
  const res = await page.request.post('/runs', {
    headers: { 'next-action': '0'.repeat(40), 'content-type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify([{ query: 'x'.repeat(1024 * 1024 + 10) }]),
  });
  expect(res.status()).toBe(413);
  expect(res.headers()['content-type']).toBe('text/plain');
  expect(await res.text()).toContain('more than 1 MB');
});

test('a malformed server-action body gets a 400 naming what is wrong, not a 500 with a digest, and nothing runs', async ({ browser }) => {
  // A real action id, as the browser sends it: the sign-in form's call, captured (and stopped) on its way out.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.route('**/sign-in', (route) => (route.request().method() === 'POST' ? route.abort() : route.continue()));
  await page.getByLabel('Email').fill('nobody@e2e.test');
  await page.getByLabel('Password').fill('not a password');
  const [sent] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST' && r.headers()['next-action'] !== undefined), page.getByRole('button', { name: 'Sign in' }).click()]);
  const actionId = sent.headers()['next-action']!;
  const post = (data: string) => page.request.post('/sign-in', { headers: { 'next-action': actionId, 'content-type': 'text/plain;charset=UTF-8' }, data });
  const cases: [string, RegExp][] = [
    ['{"email":', /not valid JSON/],
    ['', /no arguments/],
    ['"a bare string"', /must be a list/],
    ['['.repeat(5000) + ']'.repeat(5000), /deeper than 64 levels/],
  ];
  for (const [body, said] of cases) {
    const res = await post(body);
    expect(res.status(), `body ${body.slice(0, 20)}`).toBe(400);
    expect(res.headers()['content-type']).toBe('text/plain');
    expect(await res.text()).toMatch(said);
  }
  // The same id with a well-formed list still reaches the action (a wrong password, answered as such).
  const ok = await post(JSON.stringify([{ email: 'nobody@e2e.test', password: 'not a password', next: '/' }]));
  expect(ok.status()).toBe(200);
  await context.close();
});
