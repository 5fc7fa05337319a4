import { expect, test } from '@playwright/test';
import { expectNoSidewaysScroll, saveArtifact } from '../support/helpers';

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
});

test('cancelling a matrix on a live model stops it within seconds: a partial result marked cancelled, and nothing stored after', async ({ page }) => {
  await page.goto('/matrix');
  const form = page.getByRole('region', { name: 'Run the matrix' });
  // The offline model server answers each call after 5 s, so the matrix is still working when cancelled.
  await form.getByTestId('model-provider').selectOption('openai-compatible');
  await form.getByTestId('model-name').fill('stockroom-fake');
  const planned = /^(\d+) runs/.exec((await form.getByText(/runs: every golden case under 5 settings/).textContent()) ?? '')?.[1];
  await form.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  const progress = page.getByRole('region', { name: 'Progress' });
  await expect(progress.getByTestId('suite-status')).toHaveText(/queued|running/);

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
