/**
 * From looking to improving (issue 26), one spec so the suite stays short: a case added from a run
 * and an eval run on the new set; a golden set imported and evaluated to have runs to label; a step
 * and a run labelled with the keyboard; the labelling queue; the judge calibrated on those labels;
 * the waterfall of a run here and of an imported one. The tests share state and run in order.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { runFromLauncher, saveArtifact } from '../support/helpers';
import { E2E_OTLP_TOKEN } from '../support/users';
import { MIN_CALIBRATION_LABELS } from '../../lib/eval/label-calibration';

test.describe.configure({ mode: 'serial' });

const bundled = readFileSync('data/golden/stockroom_golden_own_v1.jsonl', 'utf8').split('\n').filter(Boolean);
let labelSuite = '';

/** Runs an eval of stored set `name` from /golden-sets and waits for it; returns the suite id. */
async function evalSet(page: Page, name: string): Promise<string> {
  await page.goto('/golden-sets');
  await page.getByLabel('Golden set', { exact: true }).selectOption(name);
  await page.getByTestId('run-golden-set').click();
  const suite = page.getByTestId('golden-suite');
  await expect(suite.getByTestId('suite-status')).toHaveText('done', { timeout: 90_000 });
  return (await suite.getByRole('link', { name: /suite.s runs/ }).getAttribute('href'))!.split('suite=')[1]!;
}

test('adds a case to a golden set from a run, and runs an eval on the new set', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S001' });
  const form = page.getByTestId('add-golden-case');
  await form.locator('summary').click();
  await form.getByLabel('Golden set', { exact: true }).fill('e2e-from-runs');
  await expect(form.getByLabel(/Expected answer/)).toHaveValue(/SKU-2011/);
  await form.getByLabel(/Expected answer/).fill('Yes: SKU-2011 Ratchet Lashing Strap 5m, pack of 4.');
  await form.getByTestId('add-golden-submit').click();
  await expect(form.getByTestId('add-golden-result')).toContainText('Added to e2e-from-runs (version 1, 1 case)');

  const suite = await evalSet(page, 'e2e-from-runs');
  await page.goto(`/runs?suite=${suite}`);
  await expect(page.getByTestId('runs-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('runs-table')).toContainText('Do you sell ratchet lashing straps?');
  // The set downloads in the golden JSONL format.
  const res = await page.request.get('/api/golden-sets/e2e-from-runs/export');
  expect(res.status()).toBe(200);
  expect(JSON.parse((await res.text()).trim())).toMatchObject({ reference_answer: 'Yes: SKU-2011 Ratchet Lashing Strap 5m, pack of 4.' });

  // A set imported in the course's format, evaluated: the runs the next tests label.
  await page.goto('/golden-sets');
  await page.getByLabel(/Set name/).fill('e2e-to-label');
  await page.getByLabel('…or paste it').fill(bundled.slice(0, MIN_CALIBRATION_LABELS).join('\n'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stored e2e-to-label version 1' })).toBeVisible();
  labelSuite = await evalSet(page, 'e2e-to-label');
});

test('labels a step and the run with the keyboard; the label shows in the runs list and filters it', async ({ page }) => {
  await page.goto(`/runs?suite=${labelSuite}`);
  const first = page.getByTestId('runs-table').locator('tbody tr').first();
  const runId = (await first.locator('a[data-row-link]').getAttribute('href'))!.split('/').pop()!;
  await page.goto(`/runs/${runId}?step=1`);
  const panel = page.getByTestId('label-panel');
  await expect(panel).toContainText('Step 1: not labelled');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('2');
  await expect(panel.getByTestId('label-message')).toHaveText('Labelled step 1 fail.');
  await expect(panel.getByTestId('step-label')).toContainText('fail');
  await page.keyboard.press('w');
  await page.keyboard.press('1');
  await expect(panel.getByTestId('label-message')).toHaveText('Labelled the run pass.');
  await expect(panel.getByTestId('run-label')).toContainText('pass');

  await page.goto(`/runs?suite=${labelSuite}&labelled=yes`);
  await expect(page.getByTestId('runs-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('row-label')).toContainText('pass');
  await page.goto(`/runs?suite=${labelSuite}&label=fail`);
  await expect(page.getByTestId('runs-table').locator('tbody tr')).toHaveCount(1);
});

test('the labelling queue: the unlabelled runs one after another, labelled with the keyboard', async ({ page }) => {
  await page.goto(`/runs?suite=${labelSuite}`);
  await page.getByTestId('label-queue-link').click();
  await expect(page).toHaveURL(/\/label-queue\?/);
  const position = page.getByTestId('queue-position');
  const total = MIN_CALIBRATION_LABELS - 1;
  await expect(position).toContainText(`Run 1 of ${total}`);
  // Skip one, come back, then label every run: pass and fail in turn.
  const firstQuery = await page.getByTestId('queue-query').textContent();
  await page.keyboard.press('s');
  await expect(position).toContainText(`Run 2 of ${total}`);
  await page.keyboard.press('p');
  await expect(page.getByTestId('queue-query')).toHaveText(firstQuery!);
  const waits: number[] = [];
  for (let i = 0; i < total; i += 1) {
    const started = Date.now();
    await page.keyboard.press(i % 3 === 0 ? '2' : '1');
    await expect(position).toContainText(i + 1 < total ? `Run ${i + 2} of ${total}` : 'End of the queue');
    waits.push(Date.now() - started);
  }
  await expect(page.getByTestId('queue-done')).toBeVisible();
  await expect(position).toContainText(`${total} labelled`);
  // Next run shown after a key press, as Playwright sees it (includes its own round trip): a figure, not a check.
  const sorted = [...waits].sort((a, b) => a - b);
  console.log(`label queue: next run shown after a key press, p95 ${sorted[Math.ceil(sorted.length * 0.95) - 1]} ms over ${sorted.length}`);
  await page.goto(`/runs?suite=${labelSuite}&labelled=no`);
  await expect(page.getByText('No runs match these filters.')).toBeVisible();
});

test('calibrates the fake judge on the labels; each disagreement links to its run', async ({ page }) => {
  await page.goto('/judge');
  await page.getByRole('radio', { name: /this tenant's labels/ }).check();
  await expect(page.getByTestId('labels-needed')).toHaveCount(0);
  await expect(page.getByLabel('Judge', { exact: true })).toHaveValue('fake');
  await page.getByTestId('run-calibration').click();
  await expect(page).toHaveURL(/\/judge\?id=/);
  const detail = page.getByTestId('calibration-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toContainText('fake-judge on labels:kittiwake');
  await expect(page.getByTestId('calibration-items').locator('tbody tr')).toHaveCount(MIN_CALIBRATION_LABELS);
  const link = page.getByTestId('calibration-items').locator('tbody tr').first().getByRole('link');
  await expect(link).toHaveAttribute('href', /^\/runs\//);
  await saveArtifact(page, 'judge-on-labels');
});

test('the waterfall of a run here and of an imported run: bars with latency, tokens and cost; a click moves the replay', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S001' });
  const waterfall = page.getByTestId('waterfall');
  await expect(waterfall.getByTestId('waterfall-bar').first()).toBeVisible();
  // The loop records when each call started and ended (issue 22): the bars sit at those times.
  await expect(page.getByTestId('waterfall-note')).toContainText('Bars at their recorded start and end times.');
  const tool = waterfall.locator('[data-testid=waterfall-bar][data-kind=tool]').first();
  await expect(tool).toContainText('search_products');
  const step = await tool.getAttribute('data-step');
  await tool.click();
  await expect(page.getByTestId('replay-position')).toContainText(`step ${step}`);
  await expect(page.getByTestId('step-cost')).toContainText(`Step ${step}: model`);
  await expect(waterfall.locator('[data-kind=model]').first()).toContainText('tok');
  await saveArtifact(page, 'waterfall');

  const res = await page.request.post('/api/otlp/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` },
    data: readFileSync('lib/otel/testing/fixtures/genai-python-agent.json'),
  });
  expect(res.status()).toBe(200);
  await page.goto(`/runs?source=imported&q=${encodeURIComponent('Weather in Paris and Oslo?')}`);
  await page.getByTestId('runs-table').locator('tbody tr').first().locator('a[data-row-link]').click();
  await expect(page.getByTestId('imported-badge')).toBeVisible();
  await expect(page.locator('[data-testid=waterfall-bar][data-kind=tool]').first()).toContainText('get_weather');
  await expect(page.locator('[data-testid=waterfall-bar][data-kind=model]').first()).toBeVisible();
  // An imported trace's bars sit at its spans' own times.
  await expect(page.getByTestId('waterfall-note')).toContainText('Bars at their recorded start and end times.');
});
