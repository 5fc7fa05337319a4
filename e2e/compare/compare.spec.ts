import { expect, test } from '@playwright/test';
import { saveArtifact } from '../support/helpers';

test('compares a stock lookup with and without ambiguous_tool_desc and highlights the different tool', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=ambiguous_tool_desc]').click();
  await page.getByLabel('Golden case').selectOption('S008');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(result).toBeVisible();
  await expect(result.locator('[data-score=toolSelection]')).toHaveClass(/worse/);

  await result.getByRole('link', { name: 'Compare the two trajectories step by step' }).click();
  await page.waitForURL(/\/compare\?a=.+&b=.+/);
  const table = page.getByTestId('compare-table');
  await expect(table.locator('tr[data-difference=different_tool]').first()).toBeVisible();
  await expect(table.locator('tr[data-difference=different_tool]').first()).toContainText('different tool');
  await expect(page.getByTestId('compare-summary')).toContainText('step(s) differ');
  await saveArtifact(page, 'compare');
});
