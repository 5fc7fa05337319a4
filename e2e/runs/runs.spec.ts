import { expect, test } from '@playwright/test';
import { runMatrix, saveArtifact } from '../support/helpers';

test('filters and pages through the stored runs', async ({ page }) => {
  await runMatrix(page); // 305 runs, enough for several pages

  await page.goto('/runs?size=25');
  const rows = page.locator('[data-testid=runs-table] tbody tr');
  await expect(rows).toHaveCount(25);
  const firstPage = await rows.locator('td:first-child').allTextContents();
  await page.getByRole('link', { name: 'Next page »' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(25);
  const secondPage = await rows.locator('td:first-child').allTextContents();
  expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
  await page.getByRole('link', { name: '« First page' }).click();
  await expect(rows.locator('td:first-child').first()).toHaveText(firstPage[0]!);

  // Filter: one case under one flag.
  await page.getByLabel('Case id').fill('S008');
  await page.getByLabel('Flag').selectOption('ambiguous_tool_desc');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/caseId=S008/);
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) {
    expect(text).toContain('S008');
    expect(text).toContain('ambiguous_tool_desc');
  }

  // Text search in the query, and a filter with no match.
  await page.goto('/runs?q=goggles');
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.locator('td:nth-child(3)').allTextContents()) expect(text.toLowerCase()).toContain('goggles');
  await page.goto('/runs?q=no-such-query-text-anywhere');
  await expect(page.getByText('No runs match these filters.')).toBeVisible();

  // Sorting by steps, descending.
  await page.goto('/runs?sort=steps&dir=desc&size=25');
  const steps = (await rows.locator('td:nth-child(6)').allTextContents()).map(Number);
  expect(steps).toEqual([...steps].sort((a, b) => b - a));
  await page.goto('/runs?size=25');
  await saveArtifact(page, 'runs');

  // "Pick two to compare": tick two rows and compare them, A the first ticked; a third waits until one is let go.
  const ids = (await rows.locator('a[data-row-link]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.split('/').pop()!))).slice(0, 3);
  await rows.nth(0).getByTestId('pick-run').check();
  await expect(page.getByTestId('compare-bar')).toContainText('tick one more');
  await rows.nth(2).getByTestId('pick-run').check();
  await expect(rows.nth(1).getByTestId('pick-run')).toBeDisabled();
  await page.getByTestId('compare-picked').click();
  await page.waitForURL(`/compare?a=${ids[0]}&b=${ids[2]}`);
  await expect(page.getByTestId('compare-table')).toBeVisible();

  // j and k move through the rows (the row's link takes the focus), Enter opens the one reached.
  await page.goto('/runs?size=25');
  // A key pressed before the page is hydrated reaches no handler: press until the first row takes focus.
  await expect(async () => {
    await page.locator('body').press('j');
    await expect(rows.nth(0).locator('a[data-row-link]')).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(rows.nth(1).locator('a[data-row-link]')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/runs/${ids[1]}`));
});
