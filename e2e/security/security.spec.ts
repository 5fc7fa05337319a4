import { expect, test } from '@playwright/test';
import { failOnDialog, runFromLauncher, saveArtifact } from '../support/helpers';

const HOSTILE = 'Find <img src=x onerror=alert(1)> <script>alert(1)</script> widgets';

test('markup in a query and in what the model saw is shown as text and never executes', async ({ page }) => {
  const seen = failOnDialog(page);
  await runFromLauncher(page, { query: HOSTILE });

  await expect(page.getByTestId('run-query')).toHaveText(HOSTILE);
  // Step to the first model call: the user message carries the markup, as text.
  await page.getByRole('button', { name: 'Next step' }).click();
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
