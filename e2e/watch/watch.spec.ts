/**
 * Watching runs live (issue 37), end to end against the production build: an admin defines evaluators
 * and sees their scores arrive on a run imported over OTLP (scored by a job, not the request); the
 * trends page charts it and a point drills down to the runs behind it; an alert rule fires once and is
 * delivered, signed, to a local webhook receiver. The tests share state and run in order.
 */
import { randomBytes } from 'node:crypto';
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
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The GenAI fixture trace as a new trace (fresh ids) that ran a minute ago. */
function freshTrace(): Buffer {
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
  return Buffer.from(JSON.stringify(rewrite(doc)));
}

async function sendFreshTrace(page: Page): Promise<void> {
  const res = await page.request.post('/api/otlp/v1/traces', { headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` }, data: freshTrace() });
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
