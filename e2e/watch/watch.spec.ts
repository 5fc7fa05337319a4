/**
 * Watching runs live (issue 37), end to end against the production build: an admin defines evaluators
 * and sees their scores arrive on a run imported over OTLP (scored by a job, not the request); the
 * trends page charts it and a point drills down to the runs behind it; an alert rule fires once and is
 * delivered, signed, to a local webhook receiver. The tests share state and run in order.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { saveArtifact } from '../support/helpers';
import { E2E_OTLP_TOKEN } from '../support/users';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../../lib/notify/testing/receiver';

test.describe.configure({ mode: 'serial' });

const SECRET = `whsec_${Buffer.from('the e2e watch webhook secret, 32').toString('base64')}`;
const QUERY = 'Weather in Paris and Oslo?';

async function serious(page: Page): Promise<string[]> {
  // A page that re-renders itself (a running backfill refreshes /evaluators) can be caught mid-refresh,
  // its document title not yet back: check the page as it settles, not in between.
  await expect(page).toHaveTitle(/\S/);
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The GenAI fixture trace as a new trace (fresh ids) that ran a minute ago; `tags` go on its root the Langfuse way. */
function freshTrace(tags: string[] = []): Buffer {
  const doc = JSON.parse(readFileSync('lib/otel/testing/fixtures/genai-python-agent.json', 'utf8')) as unknown;
  const ids = new Map<string, string>();
  let earliest: bigint | null = null;
  const scan = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(scan);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'startTimeUnixNano' && (earliest === null || BigInt(String(x)) < earliest)) earliest = BigInt(String(x));
        scan(x);
      }
  };
  scan(doc);
  const shift = BigInt(Date.now() - 60_000) * 1_000_000n - (earliest ?? 0n);
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (/TimeUnixNano$/.test(k)) return [k, String(BigInt(String(x)) + shift)];
        if (k === 'traceId' && typeof x === 'string') {
          if (!ids.has(x)) ids.set(x, randomBytes(16).toString('hex'));
          return [k, ids.get(x)];
        }
        return [k, rewrite(x)];
      }),
    );
  };
  const out = rewrite(doc) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ parentSpanId?: string; attributes: unknown[] }> }> }> };
  if (tags.length > 0) {
    for (const span of out.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans))) {
      if (!span.parentSpanId) span.attributes.push({ key: 'langfuse.trace.tags', value: { arrayValue: { values: tags.map((t) => ({ stringValue: t })) } } });
    }
  }
  return Buffer.from(JSON.stringify(out));
}

async function sendFreshTrace(page: Page, tags: string[] = []): Promise<void> {
  const res = await page.request.post('/api/otlp/v1/traces', { headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` }, data: freshTrace(tags) });
  expect(res.status()).toBe(200);
}

let runId = '';
let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test('an admin defines evaluators and their scores arrive on a run imported over OTLP', async ({ page }) => {
  await page.goto('/evaluators');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  // A bad name is refused naming the field, and nothing is saved.
  await page.getByLabel('Name', { exact: true }).fill('Loops!');
  await page.getByRole('button', { name: 'Save evaluator' }).click();
  await expect(page.locator('#ev-name-error')).toContainText('lowercase');
  await expect(page.getByTestId('evaluators-empty')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('loops');
  await page.getByLabel('Source').selectOption('imported');
  await page.getByRole('button', { name: 'Save evaluator' }).click();
  await expect(page.getByTestId('evaluator-saved')).toContainText('loops v1');
  // The form resets once its action (and the page's refresh) is done: fill the next one after that.
  await expect(page.getByTestId('evaluators-table')).toContainText('loops');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await page.getByLabel('Name', { exact: true }).fill('faithful');
  await page.getByLabel('Kind').selectOption('judge');
  await page.getByLabel('Sampling rate (0 to 1)').fill('1');
  await page.getByRole('button', { name: 'Save evaluator' }).click();
  await expect(page.getByTestId('evaluator-saved')).toContainText('faithful v1');
  await expect(page.getByTestId('evaluators-table')).toContainText('judge fake, 100% of runs');

  await sendFreshTrace(page);
  await page.goto(`/runs?source=imported&q=${encodeURIComponent(QUERY)}`);
  const row = page.getByTestId('runs-table').locator('tbody tr').first();
  runId = (await row.locator('a[href^="/runs/"]').first().getAttribute('href'))!.split('/').pop()!;

  // The scores are a job's work after the run was stored: they arrive, the page does not wait for them.
  await expect
    .poll(async () => {
      await page.goto(`/runs/${runId}`);
      return page.getByTestId('score-row').count();
    }, { timeout: 90_000, intervals: [1000, 2000, 3000] })
    .toBe(2);
  await expect(page.getByTestId('scores-panel')).toContainText('loops');
  await expect(page.getByTestId('scores-panel')).toContainText('fake-judge');
  await saveArtifact(page, 'watch-scores-in-replay');

  // The runs list filters and sorts by a score.
  await page.goto('/runs?evaluator=faithful&sort=score');
  await expect(page.getByTestId('runs-table')).toContainText(runId.slice(-8));
  await expect(page.getByTestId('row-score').first()).toHaveText(/\d\.\d\d/);
});

test('the trends page charts the runs and a point drills down to the runs behind it', async ({ page }) => {
  await page.goto('/trends?window=24h&by=all');
  await expect(page.getByTestId('trend-totals')).toContainText(/[1-9]\d* runs/);
  await expect(page.locator('[data-testid=chart-runs] svg.recharts-surface[role=application]')).toBeVisible();
  await expect(page.locator('[data-testid=chart-mix] .recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('[data-testid=chart-scores] svg.recharts-surface[role=application]')).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  await saveArtifact(page, 'watch-trends');
  await page.getByText(/The points as a table/).click();
  await page.getByTestId('point-link').last().click();
  await page.waitForURL(/\/runs\?from=.*&before=/);
  await expect(page.getByTestId('runs-table')).toContainText(runId.slice(-8));
});

test('an alert rule fires once and reaches a local webhook receiver, signed', async ({ page }) => {
  await page.goto('/webhooks');
  await page.getByLabel('URL (http or https)').fill(receiver.url);
  await page.getByLabel('Signing secret (empty: generate one)').fill(SECRET);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByTestId('webhooks-table')).toContainText(receiver.url);

  await page.goto('/alerts');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  await page.getByLabel('Name', { exact: true }).fill('spend');
  await page.getByLabel('When').selectOption('daily_cost');
  await page.getByLabel('USD per day').fill('0');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByTestId('alert-rules')).toContainText('cost over $0 in a day');

  // Today's imported runs are priced (gpt-4o-mini): the next watch job (poked by an import) finds the breach.
  await sendFreshTrace(page);
  const alerts = () =>
    receiver.received
      .map((r) => verifyStandardWebhook(SECRET, r) as { type: string; data: { alert?: { rule: string; window: string } } })
      .filter((b) => b.type === 'alert.fired');
  await expect.poll(() => alerts().length, { timeout: 90_000 }).toBe(1);
  expect(alerts()[0]!.data.alert).toMatchObject({ rule: 'spend', window: new Date().toISOString().slice(0, 10) });
  await page.goto('/alerts');
  await expect(page.getByTestId('alert-history').locator('tbody tr')).toHaveCount(1);
  await saveArtifact(page, 'watch-alert-history');

  // Another import and another watch job (it scores the new run, then checks the rules again): the same
  // breach window records and sends nothing more.
  await sendFreshTrace(page);
  await page.goto(`/runs?source=imported&q=${encodeURIComponent(QUERY)}`);
  const newest = (await page.getByTestId('runs-table').locator('tbody tr').first().locator('a[href^="/runs/"]').first().getAttribute('href'))!;
  expect(newest).not.toContain(runId);
  await expect
    .poll(async () => {
      await page.goto(newest);
      return page.getByTestId('score-row').count();
    }, { timeout: 90_000, intervals: [1000, 2000, 3000] })
    .toBe(2);
  await page.goto('/alerts');
  await expect(page.getByTestId('alert-history').locator('tbody tr')).toHaveCount(1);
  expect(alerts()).toHaveLength(1);
});

/** Runs a small script against the e2e database with the data layer (the react-server condition its modules need). */
function withDatabase(code: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', '--input-type=module', '-e', code], {
    env: { ...process.env, DATABASE_URL: `file:${process.env.E2E_DB_FILE}`, CHECKPOINT_DISABLE: '1' },
    encoding: 'utf8',
  });
}

test('tags from a trace and from the run form filter the runs list, narrow an evaluator and group the trends', async ({ page }) => {
  await sendFreshTrace(page, ['production', 'checkout-v2']);
  const tagged = page.getByTestId('runs-table').locator('tbody tr');
  await expect
    .poll(async () => {
      await page.goto('/runs?tag=checkout-v2');
      return tagged.count();
    }, { timeout: 60_000, intervals: [1000, 2000] })
    .toBe(1);
  await expect(tagged.first().getByTestId('row-tags')).toContainText('production');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  // A tag of a row filters by it; the filter form holds it.
  await tagged.first().getByRole('link', { name: 'production' }).click();
  await page.waitForURL(/[?&]tag=production/);
  await expect(page.getByLabel('Tag', { exact: true })).toHaveValue('production');
  // A bad tag filter is said, naming it.
  await page.goto(`/runs?tag=${'x'.repeat(70)}`);
  await expect(page.getByTestId('filter-error')).toContainText('tag');

  // The run form stores what the operator typed.
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  await page.getByLabel('Tags').fill('nightly, e2e form');
  await page.getByRole('button', { name: 'Run and replay' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f]+(\?transition=\d+)?$/);
  await expect(page.getByTestId('run-tag')).toHaveText(['tag: e2e form', 'tag: nightly']);

  // The trends by tag (the watch job has rolled the tagged run up): a series per tag, each point a link to its runs with that tag.
  await expect
    .poll(async () => {
      await page.goto('/trends?window=24h&by=tag');
      return page.getByTestId('trend-totals').textContent();
    }, { timeout: 60_000, intervals: [1000, 2000] })
    .toMatch(/[1-9]\d* runs/);
  await expect(page.locator('[data-testid=chart-runs] svg.recharts-surface[role=application]')).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  await saveArtifact(page, 'watch-trends-by-tag');
  await page.getByText(/The points as a table/).click();
  const links = await page.getByTestId('point-link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  expect(links.some((h) => h.includes('tag=checkout-v2'))).toBe(true);
  await page.goto(links.find((h) => h.includes('tag=checkout-v2'))!);
  await expect(page.getByTestId('runs-table').locator('tbody tr')).toHaveCount(1);

  // An evaluator narrowed to a tag.
  await page.goto('/evaluators');
  await page.getByLabel('Name', { exact: true }).fill('checkout');
  await page.getByLabel('Tag', { exact: true }).fill('checkout-v2');
  await page.getByRole('button', { name: 'Save evaluator' }).click();
  await expect(page.getByTestId('evaluators-table')).toContainText('tagged checkout-v2');
});

test('an admin backfills an evaluator over the stored runs, sees it finish, and cancels one that runs', async ({ page }) => {
  await page.goto('/evaluators');
  await expect(page.getByTestId('backfills-empty')).toBeVisible();
  // The evaluator narrowed to checkout-v2 was defined after its run came in: the backfill scores it.
  await page.getByLabel('Evaluator', { exact: true }).selectOption({ label: 'checkout v1' });
  await page.getByRole('button', { name: 'Backfill' }).click();
  const row = page.getByTestId('backfill-row').first();
  await expect(row.getByTestId('backfill-status')).toHaveText('done', { timeout: 60_000 });
  await expect(row.getByTestId('backfill-progress')).toContainText('1 of 1 runs · 1 scored');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(page), scheme).toEqual([]);
  }
  await saveArtifact(page, 'watch-backfill');
  await page.goto('/runs?tag=checkout-v2&evaluator=checkout');
  await expect(page.getByTestId('row-score')).toHaveText(/\d\.\d\d/);

  // Again, the same version: a window that ends before it starts is refused naming the field.
  await page.goto('/evaluators');
  await page.getByLabel('Evaluator', { exact: true }).selectOption({ label: 'checkout v1' });
  await page.getByLabel('until (UTC)').fill('2020-01-01T00:00');
  await page.getByRole('button', { name: 'Backfill' }).click();
  await expect(page.locator('#bf-to-error')).toContainText('end after it starts');

  // A backfill a step is working on (held by one here, so it stays running while the page is looked at): Cancel stops it.
  withDatabase(`
    const { listEvaluators } = await import('./lib/db/review/evaluators.ts');
    const { startBackfill, claimBackfill } = await import('./lib/db/review/evaluator-backfills.ts');
    const e = (await listEvaluators('kittiwake')).find((x) => x.name === 'loops');
    const b = await startBackfill('kittiwake', e.id, { from: new Date(Date.now() - 86400000), to: new Date() }, null);
    await claimBackfill(b.id, { token: 'e2e-step', ms: 600000 });
    process.exit(0);
  `);
  await page.reload();
  const running = page.getByTestId('backfill-row').filter({ hasText: 'loops v1' });
  await expect(running.getByTestId('backfill-status')).toHaveText('running');
  await running.getByRole('button', { name: 'Cancel the backfill of loops' }).click();
  await expect(running.getByTestId('backfill-status')).toHaveText('cancelled');
});
