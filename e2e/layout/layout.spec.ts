import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, runFromLauncher } from '../support/helpers';
import { storageStateOf } from '../support/users';

/** One row of navigation: every visible header item is centred on the brand's line. */
async function expectHeaderOnOneRow(page: Page): Promise<void> {
  const middles = await page
    .locator('.site-header nav > *')
    .evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().width > 0).map((e) => e.getBoundingClientRect()).map((r) => r.top + r.height / 2));
  for (const middle of middles) expect(Math.abs(middle - middles[0]!)).toBeLessThan(8);
}

test('at 1400 px the runs table shows every column without a sideways scroll and the header stays on one row', async ({ page }) => {
  // A long question and a combined setting are what pushed Duration, Started and the actions off screen.
  await runFromLauncher(page, {
    query: 'Please check, for every warehouse aisle you know of, whether the ratchet lashing straps and the safety goggles are in stock',
    weaknesses: ['ambiguous_tool_desc', 'oversized_payload'],
  });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/runs');
  const wrap = page.locator('.table-wrap').filter({ has: page.getByTestId('runs-table') });
  await expect(wrap).toBeVisible();
  const sideways = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(sideways).toBeLessThanOrEqual(1);
  const lastHeader = page.getByTestId('runs-table').locator('thead th').last();
  const box = (await lastHeader.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1400);
  await expectHeaderOnOneRow(page);
});

test('at 1400 px the header stays on one row for a member of several tenants, tenant switcher included', async ({ browser }) => {
  const page = await (await browser.newContext({ storageState: storageStateOf('multi'), viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto('/runs');
  await expect(page.getByTestId('tenant-switcher')).toBeVisible();
  await expectHeaderOnOneRow(page);
  await page.context().close();
});

test('the navigation marks the current page, including its sub-pages', async ({ page }) => {
  await page.goto('/runs');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Runs' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Compare' })).not.toHaveAttribute('aria-current', 'page');
  await page.goto('/compare');
  await expect(nav.getByRole('link', { name: 'Compare' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Runs' })).not.toHaveAttribute('aria-current', 'page');
});

test('an address that leads nowhere answers 404 with a page that offers a way back', async ({ page }) => {
  for (const url of ['/no-such-page', '/runs/no-such-run']) {
    const res = await page.goto(url);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Nothing here' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page).toHaveURL(/\/$/);
  }
});

test('pages fit a 390 px phone without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/', '/runs', '/matrix', '/instructor', '/compare', '/approvals', '/effects']) {
    await page.goto(url);
    await expectNoSidewaysScroll(page, `${url} at 390 px`);
  }
});
