/**
 * Erasing a run's content from its page (issue 33): an admin reaches "Erase content" from the
 * keyboard, confirms, gets the signed receipt, and the page shows "[erased]" where the question was;
 * the erased run's page has no serious axe violations in either theme.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';

const PHRASE = 'Where are the goggles Quillon Marsh ordered?';

for (const scheme of ['light', 'dark'] as const) {
  test(`an admin erases a run's content from its page, keyboard only; the page shows [erased] (${scheme})`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    const runId = await runFromLauncher(page, { query: `${PHRASE} (${scheme})` });
    await expect(page.getByText(PHRASE).first()).toBeVisible();
    const erase = page.getByTestId('erase-run');
    await expect(erase).toBeVisible();
    page.once('dialog', (d) => void d.accept());
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await erase.evaluate((el) => el === document.activeElement);
    }
    expect(reached, 'Tab reaches Erase content').toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('erasure-receipt')).toBeVisible();
    const href = await page.getByTestId('erasure-receipt').getAttribute('href');
    const receipt = JSON.parse(decodeURIComponent(href!.replace(/^data:application\/json;charset=utf-8,/, ''))) as { runs: { runId: string; already: boolean }[]; signature: string };
    expect(receipt.runs).toEqual([expect.objectContaining({ runId, already: false })]);
    expect(receipt.signature).toMatch(/^ed25519:/);
    await page.goto(`/runs/${runId}`);
    await expect(page.getByText('[erased]').first()).toBeVisible();
    await expect(page.getByText(PHRASE)).toHaveCount(0);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
}
