import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { runFromLauncher, runMatrix, saveArtifact } from '../support/helpers';

test('searches inside trajectories, filters by guard and model, and groups a suite into one row', async ({ page }) => {
  test.setTimeout(300_000);
  await runMatrix(page); // one suite of many runs
  const suiteId = new URL(page.url()).searchParams.get('suite')!;
  const guarded = await runFromLauncher(page, { caseId: 'S001', guards: ['grounded_write'] }); // a single run, outside any suite
  const rows = page.locator('[data-testid=runs-table] tbody tr');
  const filter = (label: string) => page.getByRole('form', { name: 'Filter runs' }).getByLabel(label, { exact: true });

  // A tracking number that is in get_order_status's result (and answers), never in a question.
  await page.goto('/runs');
  await filter('Text contains').fill('NW40718236');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/q=NW40718236/);
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    await expect(row.locator('td:nth-child(3) .clamp-2')).not.toContainText('NW40718236');
    await expect(row.getByTestId('match-snippet')).toContainText(/NW40718236/i);
  }
  await expect(page.getByTestId('match-snippet').first().locator('mark')).toHaveText(/NW40718236/i);
  // Search syntax is literal text, and too short a text is refused naming the field.
  await page.goto('/runs?q=' + encodeURIComponent('"NW4" OR *'));
  await expect(page.getByText('No runs match these filters.')).toBeVisible();
  await page.goto('/runs?q=NW');
  await expect(page.getByTestId('filter-error')).toContainText('Text contains');

  // Guard filter: runs configured with grounded_write (ours, and any an earlier spec stored), none of
  // the matrix's unguarded runs; the URL keeps the filter.
  await page.goto('/runs');
  const countOf = async () => Number((await page.getByTestId('runs-count').textContent())!.replace(/[^\d]/g, '').slice(0, 6));
  const unfiltered = await countOf();
  await filter('Guard').selectOption('grounded_write');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/guard=grounded_write/);
  await expect(rows.getByRole('link', { name: guarded.slice(-8) })).toBeVisible();
  expect(await countOf()).toBeLessThan(unfiltered);
  expect(await rows.count()).toBeLessThan(unfiltered);
  await expect(filter('Guard')).toHaveValue('grounded_write');

  // Model filter offers the stored runs' models.
  await page.goto('/runs');
  const models = (await filter('Model').locator('option').allTextContents()).filter((m) => m !== 'any');
  expect(models.length).toBeGreaterThan(0);
  await filter('Model').selectOption(models[0]!);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/model=/);
  await expect(rows.first()).toBeVisible();

  // Grouped by suite: the matrix's runs are one row with their count (other specs' suites are rows of
  // their own); the single run stays a row.
  await page.goto('/runs');
  await filter('Group by suite').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/group=suite/);
  const group = page.getByTestId('suite-group').filter({ has: page.locator(`a[href="/matrix?suite=${suiteId}"]`) });
  await expect(group).toHaveCount(1);
  const inSuite = Number((await group.locator('strong').textContent())!.replace(/[^\d]/g, ''));
  expect(inSuite).toBeGreaterThan(1);
  await expect(page.getByRole('link', { name: guarded.slice(-8) })).toBeVisible();
  await expect(filter('Group by suite')).toBeChecked();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await saveArtifact(page, 'runs-grouped');
  await group.getByRole('link', { name: 'Show its runs' }).click();
  await expect(page).toHaveURL(/suite=/);
  await expect(page.getByTestId('runs-count')).toContainText(`${inSuite.toLocaleString('en')} matching runs in suite`);
});
