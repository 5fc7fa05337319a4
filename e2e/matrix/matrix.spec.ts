import { expect, test } from '@playwright/test';
import { saveArtifact } from '../support/helpers';

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
  await saveArtifact(page, 'matrix');

  // On a phone the finished matrix (chart, deltas, moved cases) fits the screen: nothing scrolls the page sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('delta-table')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
