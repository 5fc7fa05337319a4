import { expect, test } from '@playwright/test';
import { failOnDialog, runFromLauncher, saveArtifact } from '../support/helpers';
import { HOSTILE_DATASET_ID, HOSTILE_MARKUP } from '../support/hostile-dataset';

const HOSTILE = 'Find <img src=x onerror=alert(1)> <script>alert(1)</script> widgets';

test('markup in a query and in what the model saw is shown as text and never executes', async ({ page }) => {
  const seen = failOnDialog(page);
  await runFromLauncher(page, { query: HOSTILE });

  await expect(page.getByTestId('run-query')).toHaveText(HOSTILE);
  // Step to the first model call: the user message carries the markup, as text.
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(page.getByTestId('model-messages')).toContainText('<img src=x onerror=alert(1)>');
  await expect(page.getByTestId('model-messages')).toContainText('<script>alert(1)</script>');
  await expect(page.getByTestId('tool-entry').first()).toBeVisible();

  // Nothing was parsed as HTML: no injected element exists and no dialog opened.
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  // (The RSC payload carries the query as an escaped string; what must not exist is a script element of it.)
  expect(await page.evaluate(() => [...document.scripts].some((s) => s.textContent?.trim() === 'alert(1)'))).toBe(false);
  await page.goto('/runs?q=onerror');
  await expect(page.locator('[data-testid=runs-table]')).toContainText('<img src=x onerror=alert(1)>');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(seen.dialogs).toEqual([]);
  await saveArtifact(page, 'security');
});

test('markup inside tool output is shown as text everywhere and never executes', async ({ page }) => {
  const seen = failOnDialog(page);
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  await page.locator('#dataset').selectOption(HOSTILE_DATASET_ID);
  await page.getByLabel('My own query').check();
  const query = 'Where is SKU-2001 stored?';
  await page.locator('#query').fill(query);
  await page.getByRole('button', { name: 'Run and replay' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f]+(\?transition=\d+)?$/);

  // The stock lookup returned the product name with its markup; the answer quotes it, as text.
  await expect(page.getByTestId('final-answer')).toContainText(HOSTILE_MARKUP);
  await page.getByRole('button', { name: 'Next transition' }).click();
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(page.getByTestId('tool-entry').first()).toContainText('<script>alert(1)</script>');
  await page.keyboard.press('End');
  await expect(page.getByTestId('model-messages')).toContainText('<img src=x onerror=alert(1)>');

  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => [...document.scripts].some((s) => s.textContent?.trim() === 'alert(1)'))).toBe(false);
  expect(seen.dialogs).toEqual([]);
  await saveArtifact(page, 'security-tool-output');
});
