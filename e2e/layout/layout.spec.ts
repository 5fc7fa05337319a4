import { expect, test, type Page } from '@playwright/test';
import { expectNoSidewaysScroll, runFromLauncher } from '../support/helpers';
import { storageStateOf } from '../support/users';

/** One row of navigation: every visible header item is centred on the brand's line. */
async function expectHeaderOnOneRow(page: Page): Promise<void> {
  const middles = await page
    .locator('.site-header nav > *, .site-header .nav-scroll > *')
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
  // A setting badge wraps between flags and after underscores, never inside a word ("injectio n_ungu arded").
  const badge = page.getByTestId('setting-badge').filter({ hasText: 'oversized_payload' }).first();
  expect(await midWordBreaks(badge)).toEqual([]);
});

/** Where a badge's text moves to a new line inside a word (not after `_`, `+` or a space), as "…before|after". */
async function midWordBreaks(badge: import('@playwright/test').Locator): Promise<string[]> {
  return badge.evaluate((el) => {
    const chars: { c: string; top: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.textContent!.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rect = r.getClientRects()[0];
        if (rect) chars.push({ c: n.textContent![i]!, top: Math.round(rect.top) });
      }
    }
    const out: string[] = [];
    for (let i = 1; i < chars.length; i++) {
      const prev = chars[i - 1]!;
      if (chars[i]!.top > prev.top + 2 && !/[_+\s]/.test(prev.c) && !/\s/.test(chars[i]!.c)) out.push(`${chars.slice(Math.max(0, i - 6), i).map((x) => x.c).join('')}|${chars.slice(i, i + 6).map((x) => x.c).join('')}`);
    }
    return out;
  });
}

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

test('on a 390 px phone the header is compact, the filters wait behind one control, and the first run shows on the first screen', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S001' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/runs');
  // The header took ~200 px of wrapped rows; now two rows, the second (links and switches) scrolling sideways.
  const header = (await page.locator('.site-header').boundingBox())!;
  expect(header.height).toBeLessThan(844 / 8);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' })).toBeAttached();
  // 13 stacked filters came before the first run: they are behind one control, which opens them.
  const filters = page.getByRole('form', { name: 'Filter runs' });
  await expect(filters).toBeHidden();
  const firstRun = page.getByTestId('runs-table').locator('tbody tr').first();
  expect((await firstRun.boundingBox())!.y + 20).toBeLessThan(844);
  await page.getByTestId('filters-toggle').click();
  await expect(page.getByTestId('filters-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(filters).toBeVisible();
  await expect(filters.getByLabel('Case id')).toBeVisible();
  // The runs table scrolls inside its box, and says so.
  const wrap = page.locator('.table-wrap').filter({ has: page.getByTestId('runs-table') });
  await expect(wrap).toHaveAttribute('data-overflowing', '');
  expect(await wrap.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('Scrolls sideways');
  await expectNoSidewaysScroll(page, '/runs at 390 px');
});

test('pages fit a 390 px phone without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/', '/runs', '/matrix', '/instructor', '/compare', '/approvals', '/effects']) {
    await page.goto(url);
    await expectNoSidewaysScroll(page, `${url} at 390 px`);
  }
});
