import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, saveArtifact } from '../support/helpers';

const SETTINGS = ['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded'];
/** Golden cases of the bundled dataset (one JSON object a line). */
const CASES = fs.readFileSync('data/golden/stockroom_golden_own_v1.jsonl', 'utf8').split('\n').filter((l) => l.trim()).length;

/** The x-axis labels a chart shows, and fails when two neighbouring labels overlap on screen. */
async function xLabels(chart: Locator): Promise<string[]> {
  const labels = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  const boxes = await labels.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.left, `x label ${i + 1} overlaps label ${i}`).toBeGreaterThanOrEqual(boxes[i - 1]!.right - 0.5);
  return labels.allTextContents();
}

/** Every chart of the matrix labels every setting (light and dark, at the current width). */
async function expectEveryChartLabelled(page: Page, charts: string[]): Promise<void> {
  for (const id of charts) expect(await xLabels(page.getByTestId(id)), `${id} labels every setting`).toEqual(SETTINGS);
}

test('runs the matrix from the home page and shows the chart, deltas and the cases that moved', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('start-demo').click();
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.locator('[data-testid=delta-table] tbody tr')).toHaveCount(5, { timeout: 90_000 });
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 90_000 });

  // Five groups of bars, one per setting.
  const chart = page.getByTestId('matrix-chart');
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  for (const setting of ['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded'])
    await expect(chart).toContainText(setting);

  // Tool selection falls under ambiguous_tool_desc and the cell is marked worse.
  const cell = page.locator('tr[data-setting=ambiguous_tool_desc] td[data-metric=tool_selection_accuracy]');
  await expect(cell).toHaveClass(/worse/);
  await cell.getByRole('button').click();
  const moved = page.getByTestId('moved-cases');
  await expect(moved.locator('tbody tr').first()).toBeVisible();
  await expect(moved.getByRole('link', { name: 'compare' }).first()).toHaveAttribute('href', /\/compare\?a=.+&b=.+/);
  // The header names the metric, not the internal score key; the clicked cell is marked.
  await expect(moved.locator('thead')).toContainText('Tool selection: no weakness → ambiguous_tool_desc');
  await expect(moved.locator('thead')).not.toContainText(/toolSelection|TOOLSELECTION/);
  await expect(cell).toHaveClass(/selected/);
  await expect(cell.getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  // The legend lists the bars in bar order; loop rate and mean tokens have charts of their own.
  await expect(chart.locator('.recharts-legend-item-text')).toHaveText(['Tool selection', 'Answer correct', 'Termination match', 'Must-not-call OK']);
  await expect(page.getByTestId('matrix-chart-loop_rate').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('matrix-chart-mean_input_tokens').locator('.recharts-bar-rectangle').first()).toBeVisible();
  // The run's label names transport, guards and model (the deterministic fake model by what it is).
  await expect(page.getByTestId('matrix-harness')).toContainText('local · no extra guards · fake model (deterministic)');
  // Every chart names every setting: the small charts dropped ambiguous_tool_desc at 1400 px (light and dark).
  const allCharts = ['matrix-chart', 'matrix-chart-loop_rate', 'matrix-chart-mean_input_tokens'];
  await expectEveryChartLabelled(page, allCharts);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectEveryChartLabelled(page, allCharts);
  await page.emulateMedia({ colorScheme: 'light' });

  // A moved case's main link is the run under the weakness, not the none baseline that did not move.
  const firstMoved = moved.locator('tbody tr').first();
  const matrixUrl = page.url();
  await expect(firstMoved.locator('a[href^="/runs/"]').first()).toHaveText('replay under ambiguous_tool_desc');
  await firstMoved.locator('a[href^="/runs/"]').first().click();
  await expect(page.getByTestId('replay')).toBeVisible();
  await expect(page.getByText('setting: ambiguous_tool_desc')).toBeVisible();
  await page.goto(matrixUrl);
  await expect(page.getByTestId('moved-cases').locator('tbody tr').first()).toBeVisible();

  // The open cell is in the address; opening it shows the same cases.
  await expect(page).toHaveURL(/cell=ambiguous_tool_desc(~|%7E)tool_selection_accuracy/);
  await page.reload();
  await expect(page.getByTestId('moved-cases').locator('tbody tr').first()).toBeVisible();

  // A per-category cell opens that category's cases.
  const categoryCell = page.locator('td[data-category][data-setting=ambiguous_tool_desc][data-metric=tool_selection_accuracy].worse').first();
  const category = await categoryCell.getAttribute('data-category');
  await categoryCell.getByRole('button').click();
  await expect(page.getByTestId('moved-cases')).toContainText(`Cases of ${category} where Tool selection moved`);
  for (const text of await page.getByTestId('moved-cases').locator('tbody td:nth-child(2)').allTextContents()) expect(text).toBe(category);
  await saveArtifact(page, 'matrix');

  // On a phone the finished matrix (chart, deltas, moved cases) fits the screen: nothing scrolls the page sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('delta-table')).toBeVisible();
  await expectNoSidewaysScroll(page, 'the matrix at 390 px');
  // The rates chart labels all five groups on a phone too (it showed two), light and dark; the delta table scrolls in its box and says so.
  await expectEveryChartLabelled(page, ['matrix-chart']);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectEveryChartLabelled(page, ['matrix-chart']);
  const wrap = page.locator('.table-wrap').filter({ has: page.getByTestId('delta-table') });
  await expect(wrap).toHaveAttribute('data-overflowing', '');
  expect(await wrap.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('Scrolls sideways');
});

test('cancelling a matrix on a live model stops it within seconds: a partial result marked cancelled, and nothing stored after', async ({ page }) => {
  await page.goto('/matrix');
  const form = page.getByRole('region', { name: 'Run the matrix' });
  // The offline model server answers each call after 5 s, so the matrix is still working when cancelled.
  await form.getByTestId('model-provider').selectOption('openai-compatible');
  await form.getByTestId('model-name').fill('stockroom-fake');
  const planned = /^(\d+) runs/.exec((await form.getByText(/runs: every golden case under 5 settings/).textContent()) ?? '')?.[1];
  // A live model's matrix shows its estimated cost and time first, and starts once confirmed.
  await form.getByTestId('run-matrix').click();
  await expect(form.getByTestId('matrix-estimate')).toContainText(`${planned} runs`);
  await form.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  const progress = page.getByRole('region', { name: 'Progress' });
  await expect(progress.getByTestId('suite-status')).toHaveText(/queued|running/);

  // From the first paint (server-rendered, not after the first poll): stored of total, and a time estimate or why there is none yet.
  expect(planned).toBe(String(CASES * SETTINGS.length));
  const html = await (await page.request.get(page.url())).text();
  const text = html.replaceAll('<!-- -->', '').replace(/<[^>]+>/g, ' ');
  expect(text).toMatch(new RegExp(`\\d+ of ${planned} runs stored`));
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expect(progress.getByTestId('suite-count')).toHaveText(new RegExp(`^\\d+ of ${planned} runs stored$`));
  await expect(progress.getByTestId('suite-eta')).toHaveText(/left|no estimate until the first runs are stored; a first run takes .+ to about a minute/);
  // The table fills in as runs are stored: a setting's row over its cases so far, before the matrix is done.
  const partialRow = page.locator('[data-testid=delta-table] tbody tr[data-partial=true]').first();
  await expect(partialRow).toBeVisible({ timeout: 60_000 });
  await expect(partialRow.getByTestId('partial-cases')).toHaveText(new RegExp(`^[1-9]\\d* of ${CASES} cases$`));
  await expect(page.getByTestId('matrix-partial')).toContainText('Filling in as runs are stored');
  await expect(progress.getByTestId('suite-eta')).toHaveText(/left/);

  await progress.getByRole('button', { name: 'Cancel the matrix' }).click();
  await expect(progress.getByTestId('suite-status')).toHaveText('cancelled');
  await expect(progress.getByRole('button', { name: /Cancel/ })).toHaveCount(0);
  await expect(progress.locator('.alert')).toHaveText(/^cancelled: the partial result holds the cases stored before the cancel/);
  const count = progress.getByText(/^\d+ of \d+ runs$/);
  const atCancel = await count.textContent();
  expect(atCancel).toMatch(new RegExp(` of ${planned} runs$`));

  // The cases in flight at the cancel were stopped, not finished: after longer than a model call the
  // stored count is what it was, and the picker lists the run as cancelled.
  await page.waitForTimeout(8_000);
  await page.reload();
  await expect(progress.getByTestId('suite-status')).toHaveText('cancelled');
  await expect(count).toHaveText(atCancel!);
  await expect(page.locator('#pick-suite option:checked')).toHaveText(/· cancelled$/);
});
