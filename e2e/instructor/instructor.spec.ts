import { expect, test } from '@playwright/test';
import { saveArtifact } from '../support/helpers';

test('toggling ambiguous_tool_desc makes tool selection fall and lists the cases that show why', async ({ page }) => {
  await page.goto('/instructor');
  const toggle = page.locator('[data-flag=ambiguous_tool_desc]');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('instructor-run-suite').click();

  const result = page.getByTestId('instructor-suite-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  const card = result.locator('[data-metric=tool_selection_accuracy]');
  await expect(card).toHaveClass(/worse/);
  const value = Number(await card.locator('.big-number').textContent());
  expect(value).toBeLessThan(1);
  await expect(result).toContainText('Biggest move: Tool selection');
  await expect(result.getByRole('link', { name: 'compare trajectories' }).first()).toBeVisible();
  await saveArtifact(page, 'instructor');
});

test('the large-type switch scales the page for projecting and is remembered across reloads', async ({ page }) => {
  await page.goto('/instructor');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/large-type/);
  await page.getByRole('button', { name: 'Large type' }).click();
  await expect(html).toHaveClass(/large-type/);
  await page.reload();
  await expect(html).toHaveClass(/large-type/);
  await expect(page.getByRole('button', { name: 'Normal type' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Normal type' }).click();
  await expect(html).not.toHaveClass(/large-type/);
});

test('after switching flags without re-running, the results keep their own label and are marked as not the new switch', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=injection_unguarded]').click();
  await page.getByLabel('Golden case').selectOption('S046');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded');
  await expect(page.getByTestId('instructor-stale')).toHaveCount(0);

  await page.locator('[data-flag=injection_unguarded]').click();
  await page.locator('[data-flag=naive_retry]').click();
  // The old results still say what they were run under, and the page says they are not naive_retry's.
  await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded');
  await expect(page.getByTestId('instructor-stale')).toContainText('The results below are for injection_unguarded, not for the switches now chosen (naive_retry)');
  await expect(result).not.toContainText('naive_retry');
});
