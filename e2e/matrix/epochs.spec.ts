/**
 * Issue 35 in the browser: a matrix and instructor mode's suites on the seeded noisy fake model with
 * two epochs show each metric's interval and n, the deltas' significance marks (Holm-corrected) and
 * error bars on the charts, with no serious axe violation in light or dark; the deterministic fake
 * model's matrix says its differences are exact; a bad epochs count is refused naming the field. The
 * per-category table gives each figure its interval and n; the matrix picker says each run's epochs;
 * the golden sets page's eval takes the model, epochs and seed and stores each case once per epoch.
 */
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { runMatrix } from '../support/helpers';

/** Serious and critical WCAG 2 A/AA violations, light then dark (the helper of e2e/accessibility). */
async function seriousViolationsLightAndDark(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
      found.push(`${scheme}: ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

const VERDICTS = ['higher', 'lower', 'indistinguishable', 'unchanged'];

test('a fake-noisy matrix with 2 epochs shows intervals, n, significance marks and error bars; a bad epochs count is refused by name', async ({ page }) => {
  // 61 cases × 5 settings × 2 epochs, stored one by one: minutes on a loaded machine.
  test.setTimeout(600_000);
  await page.goto('/matrix');
  await page.getByTestId('model-provider').selectOption('fake-noisy');
  await page.getByTestId('epochs').fill('0');
  await page.getByTestId('run-matrix').click();
  await expect(page.locator('#m-epochs-error')).toContainText('epochs:');
  await expect(page).toHaveURL(/\/matrix$/);

  await page.getByTestId('epochs').fill('2');
  await page.getByTestId('seed').fill('7');
  await expect(page.getByText(/610 runs: every golden case under 5 settings, 2 times each/)).toBeVisible();
  await page.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 540_000 });
  await expect(page.locator('[data-testid=delta-table] tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('matrix-harness')).toContainText('fake-noisy');

  // The method is named, the correction and the epochs are said.
  const note = page.getByTestId('significance-note');
  await expect(note).toContainText("Holm's correction over 24 comparisons");
  await expect(note).toContainText('Wilson score, clustered by case (design effect)');
  await expect(note).toContainText('2 epochs per case');

  // Every cell: an interval; a rate's count of runs (n = 61 cases × 2 epochs).
  const loop = page.locator('tr[data-setting=naive_retry] td[data-metric=loop_rate]');
  await expect(loop.getByTestId('cell-interval')).toHaveText(/^\[\d\.\d\d, \d\.\d\d\]$/);
  await expect(loop.getByTestId('cell-count')).toHaveText(/^\d+ of 122$/);
  await expect(page.locator('tr[data-setting=none] td[data-metric=mean_input_tokens]').getByTestId('cell-interval')).toHaveText(/^\[\d+, \d+\] · n 122$/);
  // Every weakness cell has a delta with its interval and a verdict (4 settings × 6 metrics).
  await expect(page.getByTestId('delta-mark')).toHaveCount(24);
  for (const v of await page.getByTestId('delta-mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict')))) expect(VERDICTS).toContain(v);
  // Seed 7, 2 epochs (the same as `matrix --model fake-noisy --seed 7 --epochs 2 --json`): ambiguous_tool_desc's
  // answers fall beyond noise (Holm-adjusted p 0.0015) …
  const answers = page.locator('tr[data-setting=ambiguous_tool_desc] td[data-metric=answer_correctness]').getByTestId('delta-mark');
  await expect(answers).toHaveAttribute('data-verdict', 'lower');
  await expect(answers).toContainText(/^Δ \[-\d\.\d\d, -\d\.\d\d\] \* lower than none \(significant\)/);
  // … naive_retry's loop rate moves (3 of 61 cases loop) but is not distinguishable from none, and says so with a power hint …
  await expect(loop.getByTestId('delta-mark')).toHaveAttribute('data-verdict', 'indistinguishable');
  await expect(loop.getByTestId('delta-mark')).toContainText(/~ not distinguishable from none/);
  await expect(loop.getByTestId('power-hint')).toContainText(/about \d+ epochs would detect a change this size at 80% power/);
  // … which reads differently from a metric no case moved.
  const same = page.locator('tr[data-setting=ambiguous_tool_desc] td[data-metric=termination_match_rate]').getByTestId('delta-mark');
  await expect(same).toHaveAttribute('data-verdict', 'unchanged');
  await expect(same).toContainText(/= unchanged$/);

  // The cases behind a cell are compared over both their epochs, each saying in how many its runs differed.
  await page.locator('tr[data-setting=ambiguous_tool_desc] td[data-metric=answer_correctness] button').click();
  const moved = page.getByTestId('moved-cases');
  await expect(moved).toContainText("mean over each case's 2 epochs");
  await expect(moved.getByTestId('moved-epochs').first()).toHaveText(/^differs in [12] of 2 epochs; runs below: epoch [12]$/);
  await moved.getByRole('button', { name: 'Close' }).click();

  // The per-category table: every figure with its interval and n (a rate's count), the methods named.
  const categories = page.getByTestId('category-table');
  const catAnswer = categories.locator('td[data-setting=naive_retry][data-metric=answer_correctness]').first();
  await expect(catAnswer.getByTestId('cell-interval')).toHaveText(/^\[\d\.\d\d, \d\.\d\d\]$/);
  await expect(catAnswer.getByTestId('cell-count')).toHaveText(/^\d+ of \d+$/);
  // Tool selection is a mean (bootstrapped), read like the main table's as a share with its count.
  const catTools = categories.locator('td[data-setting=ambiguous_tool_desc][data-metric=tool_selection_accuracy]').first();
  await expect(catTools.getByTestId('cell-interval')).toHaveAttribute('title', /percentile bootstrap over cases, clustered by case/);
  await expect(catTools.getByTestId('cell-count')).toHaveText(/^\d+ of \d+$/);
  const cells = await categories.locator('td[data-metric]').count();
  expect(cells).toBeGreaterThan(0);
  await expect(categories.getByTestId('cell-interval')).toHaveCount(cells);
  await expect(page.getByTestId('category-interval-note')).toContainText('Wilson score, clustered by case (design effect)');
  await expect(page.getByTestId('category-interval-note')).toContainText('percentile bootstrap over cases, clustered by case');
  // The list of matrix runs says how many epochs each ran.
  await expect(page.locator('#pick-suite option:checked')).toHaveText(/ · 2 epochs · done$/);

  // Error bars on every chart.
  for (const id of ['matrix-chart', 'matrix-chart-loop_rate', 'matrix-chart-mean_input_tokens']) {
    const chart = page.getByTestId(id);
    await expect(chart).toHaveAttribute('data-error-bars', 'true');
    await expect(chart.locator('.recharts-errorBar').first()).toBeAttached();
  }
  await expect(page.getByTestId('chart-error-note')).toContainText('95% intervals');
  expect(await seriousViolationsLightAndDark(page)).toEqual([]);
});

test('on the deterministic fake model the matrix says every difference is exact: zero-width intervals, no marks, no error bars', async ({ page }) => {
  test.setTimeout(300_000);
  await runMatrix(page);
  await expect(page.getByTestId('significance-note')).toContainText('every difference is exact');
  await expect(page.getByTestId('cell-interval').first()).toHaveText(/^exact/);
  await expect(page.getByTestId('delta-mark')).toHaveCount(0);
  await expect(page.getByTestId('matrix-chart')).toHaveAttribute('data-error-bars', 'false');
  await expect(page.getByTestId('category-interval-note')).toContainText('every per-category figure is exact');
  await expect(page.getByTestId('category-table').getByTestId('cell-interval').first()).toHaveText(/^exact/);
  await expect(page.locator('#pick-suite option:checked')).toHaveText(/ · 1 epoch · done$/);
});

const bundled = readFileSync('data/golden/stockroom_golden_own_v1.jsonl', 'utf8').split('\n').filter(Boolean);

test('the golden sets page runs an eval on fake-noisy with epochs and a seed; a bad epochs count is refused by name; each case is stored once per epoch', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/golden-sets');
  await page.getByLabel(/Set name/).fill('e2e-epochs-form');
  await page.getByLabel('…or paste it').fill(bundled.slice(0, 3).join('\n'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stored e2e-epochs-form version 1' })).toBeVisible();
  await page.getByLabel('Golden set', { exact: true }).selectOption('e2e-epochs-form');
  await page.getByTestId('model-provider').selectOption('fake-noisy');
  await page.getByTestId('epochs').fill('101');
  await page.getByTestId('run-golden-set').click();
  await expect(page.locator('#gs-epochs-error')).toContainText('epochs: epochs is a whole number from 1 to 100');
  await expect(page.getByTestId('golden-suite')).toHaveCount(0);

  await page.getByTestId('epochs').fill('2');
  await page.getByTestId('seed').fill('7');
  await page.getByTestId('run-golden-set').click();
  const suite = page.getByTestId('golden-suite');
  await expect(suite.getByTestId('suite-status')).toHaveText('done', { timeout: 240_000 });
  // 3 cases × 2 epochs, stored one by one.
  await expect(suite.getByTestId('suite-count')).toHaveText('6 of 6 runs');
  await expect(suite.getByTestId('golden-suite-epochs')).toHaveText('2 epochs per case');
  expect(await seriousViolationsLightAndDark(page)).toEqual([]);
  const runs = (await suite.getByRole('link', { name: /suite.s runs/ }).getAttribute('href'))!;
  await page.goto(runs);
  await expect(page.getByTestId('runs-table').locator('tbody tr')).toHaveCount(6);
});

test('instructor mode on fake-noisy with 2 epochs: each card shows its interval and the delta’s significance against no weakness', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto('/instructor');
  await page.locator('[data-flag=ambiguous_tool_desc]').click();
  await page.getByTestId('model-provider').selectOption('fake-noisy');
  await page.getByTestId('epochs').fill('2');
  await page.getByTestId('seed').fill('3');
  await expect(page.getByTestId('pairing-note')).toContainText('ambiguous_tool_desc on fake-noisy (seed 3), 2 epochs');
  await page.getByTestId('instructor-run-suite').click();
  const result = page.getByTestId('instructor-suite-result');
  await expect(result).toBeVisible({ timeout: 540_000 });
  await expect(result.getByTestId('significance-note')).toContainText('against no weakness');
  await expect(result.getByTestId('significance-note')).toContainText('2 epochs per case');
  // Seed 3, 2 epochs: tool selection falls beyond noise under ambiguous_tool_desc (as `matrix --seed 3 --epochs 2` finds).
  const tools = result.locator('[data-metric=tool_selection_accuracy]');
  await expect(tools.getByTestId('cell-interval')).toHaveText(/^\[\d\.\d\d, \d\.\d\d\]$/);
  await expect(tools.getByTestId('delta-mark')).toHaveAttribute('data-verdict', 'lower');
  await expect(tools.getByTestId('delta-mark')).toContainText('* lower than no weakness (significant)');
  await expect(result.locator('[data-metric=termination_match_rate]').getByTestId('delta-mark')).toHaveAttribute('data-verdict', 'unchanged');
  for (const v of await result.getByTestId('delta-mark').evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict')))) expect(VERDICTS).toContain(v);
  expect(await seriousViolationsLightAndDark(page)).toEqual([]);
});

test('before a live matrix the form shows its estimated cost and duration and asks to confirm; nothing starts until then', async ({ page }) => {
  await page.goto('/matrix');
  const listed = await page.locator('#pick-suite option').count();
  await page.getByTestId('model-provider').selectOption('openai-compatible');
  await page.getByTestId('model-name').fill('stockroom-fake');
  await page.getByTestId('epochs').fill('3');
  await page.getByTestId('run-matrix').click();
  const estimate = page.getByTestId('matrix-estimate');
  // 5 settings × 61 cases × 3 epochs, measured on the offline fake model.
  await expect(estimate).toContainText(/^Before this live matrix:915 runs, ~\d+ model calls/);
  await expect(estimate).toContainText(/cost unknown|about \$/);
  await expect(page.getByTestId('run-matrix')).toHaveText('Start it: I accept the cost');
  await expect(page).toHaveURL(/\/matrix$/);
  // Changing the epochs asks again.
  await page.getByTestId('epochs').fill('2');
  await expect(estimate).toHaveCount(0);
  await page.getByRole('button', { name: 'Estimate the cost, then run' }).click();
  await expect(estimate).toContainText('610 runs');
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(estimate).toHaveCount(0);
  await expect(page.locator('#pick-suite option')).toHaveCount(listed);
  expect(await seriousViolationsLightAndDark(page)).toEqual([]);
});
