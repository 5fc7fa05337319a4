import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { runFromLauncher, runMatrix } from '../support/helpers';

/** Serious and critical WCAG 2 A/AA violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Presses Tab until the focused element matches, and fails after `limit` presses. */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every page has no serious or critical axe violations (${scheme})`, async ({ page, browser }) => {
    // Three runs and fourteen axe passes: past the default two minutes (four, at a load of 17) when other work shares the two cores.
    test.setTimeout(360_000);
    await page.emulateMedia({ colorScheme: scheme });
    const a = await runFromLauncher(page, { caseId: 'S008' });
    const b = await runFromLauncher(page, { caseId: 'S008', weaknesses: ['ambiguous_tool_desc'] });
    await runFromLauncher(page, { caseId: 'S024', governed: true });
    await page.getByRole('link', { name: 'Open the approval request' }).click();
    const approval = new URL(page.url()).pathname;
    const pages = ['/', '/runs', `/runs/${a}`, `/runs/${b}?transition=3`, '/matrix', '/instructor', '/compare', `/compare?a=${a}&b=${b}`, '/approvals', approval, '/effects', '/judge', '/label-queue', '/golden-sets', '/webhooks', '/no-such-page'];
    const found: string[] = [];
    for (const url of pages) {
      await page.goto(url);
      await expect(page.locator('main')).toBeVisible();
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /light/);
      for (const v of await seriousViolations(page)) found.push(`${url}: ${v}`);
    }
    const signedOut = await (await browser.newContext({ storageState: { cookies: [], origins: [] }, colorScheme: scheme })).newPage();
    await signedOut.goto('/sign-in');
    for (const v of await seriousViolations(signedOut)) found.push(`/sign-in: ${v}`);
    await signedOut.context().close();
    expect(found).toEqual([]);
  });
}

test('replay highlights, effect arguments and instructor suggestions have no serious or critical axe violations (light and dark)', async ({ page }) => {
  // Two runs, a matrix and three pages in two schemes: more than the default two minutes on two busy cores.
  test.setTimeout(300_000);
  // A replay that marks a planted notice (step 2) and a leaked system prompt; a governed write for /effects;
  // a matrix, so instructor mode lists the cases each flag moves.
  const c = await runFromLauncher(page, { caseId: 'S046', weaknesses: ['injection_unguarded'] });
  await runFromLauncher(page, { query: 'Restock 100 units of SKU-2027.', governed: true });
  await runMatrix(page);
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [url, ready] of [
      [`/runs/${c}?transition=2`, 'planted-notice'],
      ['/effects', 'effect-arguments'],
      ['/instructor', 'suggested-case'],
    ] as const) {
      await page.goto(url);
      await expect(page.getByTestId(ready).first()).toBeVisible();
      for (const v of await seriousViolations(page)) found.push(`${url} (${scheme}): ${v}`);
    }
  }
  expect(found).toEqual([]);
});

test('the first demo can be done with the keyboard alone', async ({ page }) => {
  await page.goto('/');
  // The first Tab stop skips the navigation; from there the demo button is a few Tabs away (it was 13).
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await expect(page.getByTestId('skip-link')).toBeVisible();
  await page.keyboard.press('Enter');
  await tabTo(page, '[data-testid=start-demo]', 3);
  // "?" lists the shortcuts in a dialog that Escape closes.
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toBeVisible();
  await expect(shortcuts).toContainText('next / previous row on Runs and Approvals');
  await expect(shortcuts).toContainText('previous / next transition in a replay');
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  await expect(page.getByTestId('start-demo')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.locator('[data-testid=delta-table] tbody tr')).toHaveCount(5, { timeout: 90_000 });
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 90_000 });
  // A changed cell of the delta table opens the cases that moved.
  await tabTo(page, '[data-testid=delta-table] .cell-button', 200);
  await page.keyboard.press('Enter');
  const moved = page.getByTestId('moved-cases');
  await expect(moved.locator('tbody tr').first()).toBeVisible();
  // One of them opens in replay, which steps with the arrow keys.
  await tabTo(page, '[data-testid=moved-cases] tbody a[href^="/runs/"]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/runs\/[0-9a-f]+/);
  // It opens the run under the weakness (the baseline link comes after it).
  await expect(page.getByText(/^setting: (?!none$)/)).toBeVisible();
  await expect(page.getByTestId('replay-position')).toContainText('Transition 1 of');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay-position')).toContainText('Transition 2 of');
});
