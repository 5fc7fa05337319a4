/**
 * Live models in the dashboard (issue 10 §1, §4, §6), through the offline model server the
 * Playwright config starts (openai-compatible, model stockroom-fake, with latency): pick the model,
 * watch the run stream into its replay, replay it against a changed flag and see the divergence in
 * compare. The server also holds an OpenAI key that must never reach the browser.
 */
import { expect, test } from '@playwright/test';
import { E2E_PROVIDER_KEY } from '../support/live';
import { saveArtifact } from '../support/helpers';

test('a live run streams into replay, then replaying it against a changed flag highlights the divergence in compare', async ({ page }) => {
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  // The picker lists fake and only the providers the server can call.
  const provider = page.getByTestId('model-provider');
  await expect(provider.locator('option')).toHaveText(['fake (deterministic)', 'openai', 'openai-compatible']);
  await provider.selectOption('openai-compatible');
  await page.getByTestId('model-name').fill('stockroom-fake');
  await page.locator('#case').selectOption('S003');
  // The replay is told of each step as server-sent events, not by polling (issue 40).
  const polled: string[] = [];
  page.on('request', (r) => void (r.url().includes('/progress') && polled.push(r.url())));
  const events = page.waitForResponse((r) => /\/api\/runs\/[0-9a-f]+\/events$/.test(r.url()));
  await page.getByRole('button', { name: 'Run and replay' }).click();
  expect((await events).headers()['content-type']).toContain('text/event-stream');

  // The replay opens while the run is still running and grows as steps are stored.
  await page.waitForURL(/\/runs\/[0-9a-f]+$/);
  const runId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('running-badge')).toBeVisible();
  await expect(page.getByTestId('run-live')).toContainText(/[1-9]\d* steps? stored so far/);
  await expect(page.getByTestId('replay-position')).not.toContainText('Transition 1 of 1');
  // The answer is streamed (the model server sends it in pieces over its latency): the page shows it forming.
  const forming = page.getByTestId('answer-so-far');
  await expect(forming).toContainText(/its text so far:\s*\S/, { timeout: 60_000 });
  const soFar = (await forming.locator('p').nth(1).textContent())!.trim();
  // …and ends on its own, no reload.
  await expect(page.getByTestId('termination-badge')).toHaveText('COMPLETED', { timeout: 60_000 });
  await expect(forming).toHaveCount(0);
  // What formed is how the stored answer begins.
  // (Letters and digits only: the stored answer is rendered as Markdown.)
  const plain = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, '');
  expect(plain((await page.getByTestId('final-answer').textContent())!)).toContain(plain(soFar).slice(0, 10));
  await expect(page.getByTestId('run-live')).toHaveCount(0);
  await expect(page.getByTestId('run-cost')).toHaveText('$0');
  expect(polled).toEqual([]);

  // Its waterfall sits on the times the run recorded: each model call lasted at least the model
  // server's latency (5 s, playwright.config.ts), one after another, the run's own work in between.
  await page.reload();
  await expect(page.getByTestId('waterfall-note')).toContainText('Bars at their recorded start and end times.');
  const models = page.locator('[data-testid=waterfall-bar][data-kind=model]');
  await expect(models.first()).toBeVisible();
  const spans = await models.evaluateAll((bars) => bars.map((b) => ({ start: Number(b.getAttribute('data-start-ms')), end: Number(b.getAttribute('data-end-ms')), placement: b.getAttribute('data-placement') })));
  expect(spans.length).toBeGreaterThan(1);
  for (const [i, s] of spans.entries()) {
    expect(s.placement).toBe('recorded');
    expect(s.end - s.start).toBeGreaterThanOrEqual(5000);
    if (i > 0) expect(s.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  }
  // The dashboard's live runs stream (issue 40): each model call's bar says when its first token came.
  await expect(models.first().getByTestId('time-to-first-token')).toContainText(/first token \d/);
  expect(await models.locator('[data-testid=time-to-first-token]').count()).toBe(spans.length);

  // The runs list shows it with its cost.
  await page.goto('/runs');
  await expect(page.getByTestId('runs-table').locator('tr', { hasText: runId.slice(-8) })).toContainText('$0');

  // Replay it against a changed flag: the recorded answers no longer fit, and compare shows where.
  await page.goto(`/runs/${runId}`);
  await page.getByTestId('replay-against').getByText('Replay against…').click();
  await page.locator('input[name=replay-weakness][value=ambiguous_tool_desc]').check();
  await page.getByTestId('replay-against-submit').click();
  await page.waitForURL(/\/compare\?a=[0-9a-f]+&b=[0-9a-f]+$/);
  const divergence = page.getByTestId('divergence');
  await expect(divergence).toContainText('Run B diverged from the recording at step 1');
  await expect(divergence).toContainText('description');
  await expect(page.locator('tr[data-diverged=true]')).toHaveCount(1);
  await expect(page.locator('tr[data-diverged=true] td').first()).toContainText('1');
  await expect(page.getByTestId('compare-summary')).toContainText('DIVERGED');
  await saveArtifact(page, 'live-replay-diverged');
});

test('no page or RSC payload carries the server’s provider key', async ({ page }) => {
  // Every same-origin answer the browser gets: documents, and the RSC payloads of client-side navigations.
  const bodies: { url: string; text: Promise<string> }[] = [];
  page.on('response', (res) => {
    if (res.url().startsWith('http://127.0.0.1:') && res.request().resourceType() !== 'image') bodies.push({ url: res.url(), text: res.text().catch(() => '') });
  });
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  await expect(page.getByTestId('model-provider')).toBeVisible();
  for (const [link, path] of [
    ['Instructor mode', '/instructor'],
    ['Weakness matrix', '/matrix'],
    ['Runs', '/runs'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await page.waitForURL(new RegExp(`${path}$`));
    // The model picker is on each of these pages, listing provider names only.
    if (path !== '/runs') await expect(page.getByTestId('model-provider').first(), path).toBeVisible();
  }
  expect(bodies.some((b) => b.url.includes('_rsc='))).toBe(true);
  for (const b of bodies) expect(await b.text, b.url).not.toContain(E2E_PROVIDER_KEY);
  expect(await page.content()).not.toContain(E2E_PROVIDER_KEY);
});
