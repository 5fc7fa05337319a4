/**
 * Issue 43, the instructor's and the engineer's screens: times that agree with their bars, scores named
 * for what they measure, flags explained with a pairing that shows a part alone, progress that moves,
 * golden cases drafted honestly, label keys that never lose work, and a dashboard that is accessible
 * and findable. Every figure compared here is read from the page or the dataset, never written in.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { storageStateOf } from '../support/users';

async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** WCAG contrast of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** Euclidean distance of two `rgb(…)` colours (0–441). */
function rgbDistance(a: string, b: string): number {
  const [p, q] = [a, b].map((c) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number));
  return Math.hypot(p![0]! - q![0]!, p![1]! - q![1]!, p![2]! - q![2]!);
}

test('Golden sets, Label queue and Sessions are in the navigation, and Sessions lists the tenant’s sessions', async ({ page }) => {
  await page.goto('/runs');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'More' }).click();
  for (const name of ['Golden sets', 'Label queue', 'Sessions']) await expect(nav.getByRole('link', { name })).toBeVisible();
  await nav.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'More' })).toHaveAttribute('aria-current', 'page');
});

test('large type keeps the header on one row at 1280 px and wider', async ({ page }) => {
  for (const width of [1280, 1400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/runs');
    await page.evaluate(() => window.localStorage.setItem('stockroom.largeType', '1'));
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/large-type/);
    const middles = await page
      .locator('.site-header nav > *, .site-header .nav-scroll > *')
      .evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().width > 0).map((e) => e.getBoundingClientRect()).map((r) => r.top + r.height / 2));
    for (const m of middles) expect(Math.abs(m - middles[0]!), `at ${width} px`).toBeLessThan(8);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the focus ring is at least 3:1 against what surrounds it and unlike any button fill (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/runs');
    await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /light/);
    const fills = await page.locator('button.primary, .button.primary').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const probe = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        // The colour the ring is drawn on: the nearest ancestor with a background (the ring sits outside the element).
        let p: HTMLElement | null = el.parentElement;
        let bg = 'rgb(255, 255, 255)';
        while (p) {
          const c = getComputedStyle(p).backgroundColor;
          if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
            bg = c;
            break;
          }
          p = p.parentElement;
        }
        return { what: `${el.tagName.toLowerCase()} ${el.textContent?.trim().slice(0, 30) ?? ''}`, ring: style.outlineColor, width: style.outlineWidth, styleName: style.outlineStyle, bg };
      });
      if (!probe) continue;
      expect(probe.styleName, probe.what).not.toBe('none');
      expect(contrast(probe.ring, probe.bg), `${probe.what}: ring ${probe.ring} on ${probe.bg}`).toBeGreaterThanOrEqual(3);
      // Distinct from every button fill: far apart in RGB, not a near shade (#93b4ff on a #8ab4ff button read as the fill).
      for (const fill of fills) expect(rgbDistance(probe.ring, fill), `${probe.what}: ring ${probe.ring} close to the button fill ${fill}`).toBeGreaterThanOrEqual(100);
      seen.push(probe.what);
    }
    expect(seen.length).toBeGreaterThan(10);
  });
}

test('a replay’s bars and their figures show one measure, the fake model’s latency is labelled simulated, and the messages panel is focusable', async ({ page }) => {
  const runId = await runFromLauncher(page, { caseId: 'S050', weaknesses: ['naive_retry'] });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-duration')).toContainText('harness time (wall clock)');
  const note = page.getByTestId('waterfall-note');
  await expect(note).toContainText('wall clock');
  await expect(note).toContainText('simulated');
  const bars = page.locator('[data-testid=waterfall-bar][data-kind=model]');
  await expect(bars.first()).toBeVisible();
  // Each bar's figure is its own length: the duration it states is the width it is drawn with.
  for (const bar of await bars.all()) {
    const duration = await bar.getAttribute('data-duration-ms');
    const width = await bar.getAttribute('data-width-ms');
    if (duration !== null) expect(Number(duration)).toBeCloseTo(Number(width), 3);
    await expect(bar.getByTestId('simulated-latency')).toContainText('simulated');
  }
  const messages = page.getByTestId('model-messages');
  await expect(messages).toHaveAttribute('tabindex', '0');
  await messages.focus();
  await expect(messages).toBeFocused();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await expect(page.getByTestId('model-messages')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  }
});

test('a label key never silently replaces a richer label, and a replacement can be undone', async ({ page }) => {
  const runId = await runFromLauncher(page, { caseId: 'S008' });
  await page.goto(`/runs/${runId}`);
  const panel = page.getByTestId('label-panel');
  const category = panel.getByLabel('Label category');
  const chosen = (await category.locator('option').allTextContents()).find((c) => c !== 'none')!;
  await category.selectOption(chosen);
  await panel.getByLabel('Label comment').fill('asked for the wrong product');
  await panel.getByTestId('label-fail').click();
  await expect(panel.getByTestId('step-label')).toContainText(chosen);
  // A bare key with focus on the slider: asks first, and the careful label stays.
  await category.selectOption('');
  const failKey = (await panel.getByTestId('label-fail').locator('kbd').textContent())!.trim();
  await page.getByLabel('Replay position').focus();
  await page.keyboard.press(failKey);
  await expect(panel.getByTestId('label-confirm')).toBeVisible();
  await expect(panel.getByTestId('step-label')).toContainText(chosen);
  // Replacing it on purpose offers the undo, which brings the careful label back.
  await panel.getByTestId('label-confirm-replace').click();
  await expect(panel.getByTestId('step-label')).not.toContainText(chosen);
  await panel.getByTestId('label-undo').click();
  await expect(panel.getByTestId('step-label')).toContainText(chosen);
  await page.reload();
  await expect(page.getByTestId('label-panel').getByTestId('step-label')).toContainText(chosen);
});

test('a golden case drafted from a failed run of a golden case starts from that case’s expectations and says so', async ({ page }) => {
  const runId = await runFromLauncher(page, { caseId: 'S050', weaknesses: ['naive_retry'] });
  await page.goto(`/runs/${runId}`);
  const answer = (await page.getByTestId('final-answer').textContent())!.trim();
  const badge = (await page.getByTestId('termination-badge').textContent())!;
  await page.getByTestId('add-golden-case').locator('summary').click();
  const warning = page.getByTestId('add-golden-warning');
  await expect(warning).toHaveAttribute('data-basis', 'golden_case');
  await expect(warning).toContainText(badge.split(' ')[0]!);
  // Not the failure text, not an empty call list, and no fact mined from "N model calls".
  await expect(page.locator('#gc-answer')).not.toHaveValue(answer);
  await expect(page.locator('#gc-tools')).not.toHaveValue('[]');
  const counters = [...answer.matchAll(/(\d+) (?:model |tool )?calls?/g)].map((m) => m[1]!);
  const facts = (await page.locator('#gc-facts').inputValue()).split('\n');
  for (const n of counters) expect(facts).not.toContain(n);
});

test('compare shows two unrelated answers whole and says they are entirely different', async ({ page }) => {
  const a = await runFromLauncher(page, { caseId: 'S050', weaknesses: ['naive_retry'] });
  const b = await runFromLauncher(page, { caseId: 'S008' });
  await page.goto(`/compare?a=${a}&b=${b}`);
  await expect(page.getByTestId('answers-unrelated')).toContainText('entirely different');
  await expect(page.getByTestId('answer-a').locator('del, ins')).toHaveCount(0);
  await expect(page.getByTestId('answer-b').locator('del, ins')).toHaveCount(0);
});

test('instructor mode names each score in the course’s terms, says the fake model’s differences are exact, and explains each flag with a pairing that shows its parts apart', async ({ page }) => {
  await page.goto('/instructor');
  const parts = page.locator('[data-flag-parts=naive_retry]');
  await expect(parts).toContainText('Environment:');
  await expect(parts).toContainText('Harness:');
  await expect(page.getByTestId('pairing-note')).not.toContainText('the difference is the switch.');
  await page.locator('#i-case').selectOption('S050');
  await page.locator('[data-flag=naive_retry]').click();
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(result).toBeVisible();
  await expect(result.locator('[data-score=toolSelection] [data-testid=score-meaning]')).toContainText('expected call sequence');
  await expect(result.locator('[data-score=inputTokens] [data-testid=score-meaning]')).toContainText('input tokens');
  await expect(result.getByTestId('exact-note')).toBeVisible();
  await expect(result).not.toContainText('noise');
  // The same failing shard with the guard kept on: the guard stops the loop.
  await page.getByTestId('flag-alone-naive_retry').click();
  await page.getByTestId('instructor-run-case').click();
  await expect(page.getByTestId('result-label')).toContainText('repeated-call guard kept on');
  await expect(result.locator('.panel').nth(1).getByTestId('termination-badge')).toContainText('REPEATED_CALL');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page)).toEqual([]);
  }
});

test('every suite on the instructor page shows its own stored count moving as cases are stored, and rates carry their n', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/instructor');
  await page.locator('[data-flag=naive_retry]').click();
  await page.getByTestId('instructor-run-suite').click();
  const seen: Array<Set<string>> = [new Set(), new Set()];
  const result = page.getByTestId('instructor-suite-result');
  while ((await result.count()) === 0) {
    const counts = await page.getByTestId('suite-count').allTextContents();
    counts.forEach((c, i) => seen[i]?.add(c.trim()));
    await page.waitForTimeout(100);
  }
  // Each suite showed its own count, and the counts moved: at least one showed a count between none
  // stored and all of them. (Which one, and how often, depends on how fast the machine stores cases
  // against the 0.5 s poll: a suite run second can store all 61 cases between two polls.)
  const between = (counts: Set<string>) => [...counts].filter((c) => /^(\d+) of (\d+)/.test(c) && !/^0 of/.test(c) && !/^(\d+) of \1\b/.test(c));
  for (const [i, counts] of seen.entries()) expect(counts.size, `suite ${i + 1} showed no count`).toBeGreaterThanOrEqual(1);
  expect(seen.map((c) => between(c).length).reduce((a, b) => a + b, 0), `the suites showed ${seen.map((c) => [...c].join(', ')).join(' | ')}`).toBeGreaterThanOrEqual(1);
  await expect(result.getByTestId('rate-count').first()).toContainText(/\d+ of \d+ cases/);
  await expect(result.getByTestId('exact-note')).toBeVisible();
});

test('the matrix names what each column measures, gives rates their n and writes the token threshold where it applies', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/matrix');
  await page.getByTestId('run-matrix').click();
  await page.waitForURL(/\/matrix\?suite=/);
  await expect(page.getByTestId('suite-status')).toHaveCount(0, { timeout: 240_000 });
  await expect(page.getByTestId('matrix-threshold-note')).toContainText('%');
  await expect(page.getByTestId('metric-meanings')).toContainText('expected call sequence');
  await expect(page.getByTestId('cell-count').first()).toHaveText(/^\d+ of \d+$/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page)).toEqual([]);
  }
});

test('an approved run’s header says its harness time and its wait for approval apart', async ({ page, browser }) => {
  const runId = await runFromLauncher(page, { caseId: 'S024', governed: true });
  await page.getByRole('link', { name: 'Open the approval request' }).click();
  await page.waitForURL(/\/approvals\/[^/]+$/);
  const approval = new URL(page.url()).pathname;
  const reviewer = await (await browser.newContext({ storageState: storageStateOf('reviewer') })).newPage();
  await reviewer.goto(approval);
  await reviewer.getByLabel(/Reason/).fill('Within budget.');
  await reviewer.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.getByTestId('approval-status')).toHaveText('approved');
  await reviewer.context().close();
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-duration')).toContainText('harness time');
  await expect(page.getByTestId('run-approval-wait')).toContainText('waiting for approval');
});

test('the sessions page has no axe violation in either theme', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/sessions');
    await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  }
});
