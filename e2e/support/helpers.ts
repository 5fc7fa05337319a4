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
export async function runFromLauncher(page: Page, what: { caseId?: string; query?: string; weaknesses?: string[]; guards?: string[]; governed?: boolean }): Promise<string> {
  await page.goto('/runs');
  await page.getByText('Run a case or a query').click();
  for (const flag of what.weaknesses ?? []) await page.locator(`input[name=weakness][value=${flag}]`).check();
  for (const guard of what.guards ?? []) await page.locator(`input[name=guard][value=${guard}]`).check();
  if (what.query !== undefined) {
    await page.getByLabel('My own query').check();
    await page.locator('#query').fill(what.query);
  } else if (what.caseId) {
    await page.locator('#case').selectOption(what.caseId);
  }
  if (what.governed) await page.getByLabel(/Attach the governance policy/).check();
  await page.getByRole('button', { name: 'Run and replay' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f]+(\?transition=\d+)?$/);
  await expect(page.getByTestId('replay')).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Starts the matrix from the matrix page and waits until every setting has reported. */
export async function runMatrix(page: Page): Promise<void> {
  await page.goto('/matrix');
  await page.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.locator('[data-testid=delta-table] tbody tr')).toHaveCount(5, { timeout: 90_000 });
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 90_000 });
}

/** Fails when two consecutive rows of a list overlap on screen (a row's bottom below the next row's top). */
export async function expectRowsApart(page: Page, rowSelector: string): Promise<number> {
  const boxes = await page.locator(rowSelector).evaluateAll((els) =>
    els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })).sort((a, b) => a.top - b.top),
  );
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top, `row ${i + 1} starts inside row ${i}`).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 0.5);
  return boxes.length;
}

/** Fails when the page scrolls sideways at its viewport width, naming the widest elements that stick out. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  // A resize is measured by ResizeObserver after the next frame; poll briefly so only a lasting overflow fails.
  const measure = () => page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width + 1) return null;
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && r.width > 0) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(r.right)}px`);
    }
    return `${document.documentElement.scrollWidth}px wide; sticking out: ${out.slice(0, 8).join(', ')}`;
  });
  await expect.poll(measure, { message: `${what} scrolls sideways`, timeout: 3_000 }).toBeNull();
}
