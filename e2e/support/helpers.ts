/** Shared steps of the browser tests. */
import { expect, type Page } from '@playwright/test';

/** Saves a full-page screenshot under e2e/artifacts/ (git-ignored). */
export async function saveArtifact(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true });
}

/** Fails the test if the page ever opens a dialog (alert/confirm/prompt) it was not told to expect. */
export function failOnDialog(page: Page): { dialogs: string[] } {
  const seen = { dialogs: [] as string[] };
  page.on('dialog', async (d) => {
    seen.dialogs.push(d.message());
    await d.dismiss();
  });
  return seen;
}

/** Runs a golden case (or a query) from the runs page launcher and waits for its replay; `governed` attaches the policy. */
export async function runFromLauncher(page: Page, what: { caseId?: string; query?: string; weaknesses?: string[]; governed?: boolean }): Promise<string> {
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  for (const flag of what.weaknesses ?? []) await page.locator(`input[name=weakness][value=${flag}]`).check();
  if (what.query !== undefined) {
    await page.getByLabel('My own query').check();
    await page.locator('#query').fill(what.query);
  } else if (what.caseId) {
    await page.locator('#case').selectOption(what.caseId);
  }
  if (what.governed) await page.getByLabel(/Attach the governance policy/).check();
  await page.getByRole('button', { name: 'Run and replay' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f]+$/);
  await expect(page.getByTestId('replay')).toBeVisible();
  return page.url().split('/').pop()!;
}

/** Starts the matrix from the matrix page and waits until every setting has reported. */
export async function runMatrix(page: Page): Promise<void> {
  await page.goto('/matrix');
  await page.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.locator('[data-testid=delta-table] tbody tr')).toHaveCount(5, { timeout: 90_000 });
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 90_000 });
}
