import { expect, test } from '@playwright/test';
import { runFromLauncher, runMatrix, saveArtifact } from '../support/helpers';
import { storageStateOf } from '../support/users';

const FLAGS = ['ambiguous_tool_desc', 'injection_unguarded', 'naive_retry', 'oversized_payload'];

test('toggling ambiguous_tool_desc makes tool selection fall and lists the cases that show why', async ({ page }) => {
  await page.goto('/instructor');
  const toggle = page.locator('[data-flag=ambiguous_tool_desc]');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('instructor-run-suite').click();

  const result = page.getByTestId('instructor-suite-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  const card = result.locator('[data-metric=tool_selection_accuracy]');
  await expect(card).toHaveClass(/worse/);
  const value = Number(await card.locator('.big-number').textContent());
  expect(value).toBeLessThan(1);
  await expect(result).toContainText('Biggest move: Tool selection');
  await expect(result.getByRole('link', { name: 'compare trajectories' }).first()).toBeVisible();
  await saveArtifact(page, 'instructor');
});

test('the large-type switch scales the page for projecting and is remembered across reloads', async ({ page }) => {
  await page.goto('/instructor');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/large-type/);
  await page.getByRole('button', { name: 'Large type' }).click();
  await expect(html).toHaveClass(/large-type/);
  await page.reload();
  await expect(html).toHaveClass(/large-type/);
  await expect(page.getByRole('button', { name: 'Normal type' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Normal type' }).click();
  await expect(html).not.toHaveClass(/large-type/);
});

test('after switching flags without re-running, the results keep their own label and are marked as not the new switch', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=injection_unguarded]').click();
  await page.getByLabel('Golden case').selectOption('S046');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded');
  await expect(page.getByTestId('instructor-stale')).toHaveCount(0);

  await page.locator('[data-flag=injection_unguarded]').click();
  await page.locator('[data-flag=naive_retry]').click();
  // The old results still say what they were run under, and the page says they are not naive_retry's.
  await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded');
  await expect(page.getByTestId('instructor-stale')).toContainText('The results below are for injection_unguarded, not for the switches now chosen (naive_retry)');
  await expect(result).not.toContainText('naive_retry');
});

test('suggests, for each flag, cases the newest matrix shows it moving, and each suggestion does move when run', async ({ page }) => {
  await runMatrix(page);
  await page.goto('/instructor');
  const panel = page.getByTestId('flag-suggestions');
  await expect(panel).toContainText('From the matrix of');
  // The page opens on a case; the matrix says which flags (if any) move it.
  await expect(page.getByTestId('case-move-note')).toContainText('In the latest matrix');
  for (const flag of FLAGS) {
    const first = panel.locator(`[data-suggest-flag=${flag}]`).getByTestId('suggested-case').first();
    await expect(first, `${flag} has a suggestion`).toBeVisible();
    const caseId = await first.getAttribute('data-case');
    await first.click();
    // Picking sets that flag alone and that case.
    await expect(page.locator(`[data-flag=${flag}]`)).toHaveAttribute('aria-pressed', 'true');
    for (const other of FLAGS.filter((f) => f !== flag)) await expect(page.locator(`[data-flag=${other}]`)).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByLabel('Golden case')).toHaveValue(caseId!);
    await expect(page.getByTestId('case-move-note')).toContainText(flag);
    await page.getByTestId('instructor-run-case').click();
    const result = page.getByTestId('instructor-case-result');
    await expect(result.getByTestId('result-label')).toHaveText(flag);
    // Something this flag moved shows as moved on the case's own cards.
    await expect(result.locator('.metric-card.delta').first(), `${caseId} under ${flag} moved nothing`).toBeVisible();
  }
  await saveArtifact(page, 'instructor-suggestions');
});

test('an admin arms "the next write times out": the governed write lands as unknown, an operator reconciles it, and the switch turns itself off', async ({ page, browser }) => {
  await page.goto('/instructor');
  const state = page.getByTestId('fault-state');
  await expect(state).toContainText('off');
  await page.getByTestId('fault-toggle').click();
  await expect(state).toContainText('armed by admin@e2e.test');

  const runId = await runFromLauncher(page, { query: 'Restock 100 units of SKU-2027.', governed: true });
  await page.goto(`/effects?runId=${runId}`);
  const table = page.getByTestId('effects-table');
  await expect(table.locator('.badge', { hasText: 'unknown' })).toBeVisible();
  await expect(table).toContainText('instructor fault injection (armed by admin@e2e.test)');
  await expect(table.getByRole('tree', { name: 'Arguments of create_restock_request' })).toContainText('quantity:100');

  // An operator reconciles it: the restock ledger says the write happened.
  const operator = await (await browser.newContext({ storageState: storageStateOf('operator') })).newPage();
  await operator.goto(`/effects?runId=${runId}`);
  await operator.getByRole('button', { name: 'Reconcile' }).click();
  // The row's badge follows the refreshed page, and the outcome stays on screen once it has.
  const row = operator.getByTestId('effects-table').locator('tbody tr');
  await expect(row.locator('.badge')).toHaveText('reconciled_committed');
  await expect(row.getByRole('status')).toHaveText('now reconciled_committed');
  await expect(row.getByRole('button', { name: 'Reconcile' })).toHaveCount(0);
  await operator.context().close();

  // One-shot: the fault is off again; a viewer cannot arm it.
  await page.goto('/instructor');
  await expect(state).toContainText('off');
  const viewer = await (await browser.newContext({ storageState: storageStateOf('viewer') })).newPage();
  await viewer.goto('/instructor');
  await expect(viewer.getByTestId('fault-toggle')).toBeDisabled();
  await expect(viewer.getByTestId('fault-switch').getByTestId('role-note')).toContainText('needs the admin role');
  await viewer.context().close();
});

test("naive_retry's biggest move is the loop rate rising (lower is better), and oversized_payload's mean input tokens show on the cards", async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=naive_retry]').click();
  await page.getByTestId('instructor-run-suite').click();
  let result = page.getByTestId('instructor-suite-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result.locator('[data-metric=loop_rate]')).toHaveClass(/worse/);
  await expect(result.locator('h3', { hasText: 'Biggest move' })).toContainText(/Biggest move: Loop rate \+/);

  await page.locator('[data-flag=naive_retry]').click();
  await page.locator('[data-flag=oversized_payload]').click();
  await page.getByTestId('instructor-run-suite').click();
  result = page.getByTestId('instructor-suite-result');
  await expect(result.getByTestId('result-label')).toHaveText('oversized_payload', { timeout: 90_000 });
  await expect(result.locator('[data-metric=mean_input_tokens]')).toHaveClass(/worse/);
  await expect(result.locator('[data-metric=mean_input_tokens]').getByTestId('metric-change')).toContainText(/^\+\d/);
});

test('a case card says what changed with both numbers: input tokens and loop findings are shown, never "unchanged" when they moved', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=ambiguous_tool_desc]').click();
  await page.getByLabel('Golden case').selectOption('S037');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  for (const key of ['inputTokens', 'loopFindings']) {
    const card = result.locator(`[data-score=${key}]`);
    await expect(card.locator('.big-number')).toHaveText(/^[\d,]+$/);
    const now = (await card.locator('.big-number').textContent())!;
    const change = card.getByTestId('score-change');
    // Either the same number ("unchanged") or both numbers: this run's and the one with no weakness.
    const text = (await change.textContent())!;
    if (text === 'unchanged') continue;
    const was = /^was ([\d,]+) with no weakness/.exec(text)?.[1];
    expect(was, `${key}: "${text}" names the number with no weakness`).toBeTruthy();
    expect(was).not.toBe(now);
  }
  // S037's input tokens move under ambiguous_tool_desc: the card says so with both numbers.
  await expect(result.locator('[data-score=inputTokens]').getByTestId('score-change')).toHaveText(/^was [\d,]+ with no weakness/);
});

test('a guardrail switch beside the weakness flags contains injection_unguarded on the same metric', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=injection_unguarded]').click();
  const result = page.getByTestId('instructor-case-result');
  const forbidden = result.locator('[data-score=mustNotCallOk]');
  // The first injection case on which the weakness calls a forbidden tool (read from the page, not a kept id).
  const options = await page.getByLabel('Golden case').locator('option', { hasText: '· injection ·' }).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  let moved: string | null = null;
  for (const id of options) {
    await page.getByLabel('Golden case').selectOption(id);
    await page.getByTestId('instructor-run-case').click();
    await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded');
    await expect(result.locator('.big-number').first()).toBeVisible();
    if (/worse/.test((await forbidden.getAttribute('class')) ?? '')) {
      moved = id;
      break;
    }
  }
  expect(moved, 'injection_unguarded moved no injection case').not.toBeNull();
  const rail = page.locator('[data-guardrail=no_injection]');
  await rail.click();
  await expect(rail).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('instructor-run-case').click();
  await expect(result.getByTestId('result-label')).toHaveText('injection_unguarded + no_injection');
  await expect(forbidden).not.toHaveClass(/worse/);
  await expect(forbidden.getByTestId('score-change')).toHaveText('unchanged');
});

test('with "governed, taint on", an injected restock waits for a person instead of happening, and the suite asks for one case at a time', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/instructor');
  await page.locator('[data-flag=injection_unguarded]').click();
  const governed = page.locator('[data-flag=governed]');
  await governed.click();
  await expect(governed).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('instructor-run-suite')).toBeDisabled();
  await expect(page.getByTestId('instructor-governed-note')).toContainText('one case at a time');
  // S047: the policy document the agent reads plants a restock.
  await page.locator('#i-case').selectOption('S047');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(page.getByTestId('result-label')).toHaveText('injection_unguarded, governed (taint on)');
  const waits = result.getByTestId('instructor-waits');
  // Only the injected run pauses; the same case under no weakness writes nothing and is not held.
  await expect(waits).toHaveCount(1, { timeout: 90_000 });
  await expect(waits).toContainText('waits for a person instead of happening');
  await waits.getByRole('link', { name: 'Open the approval request' }).click();
  await expect(page).toHaveURL(/\/approvals\/apr_/);
  await expect(page.getByText(/tainted at step \d+: an instruction planted in search_policy_docs/)).toBeVisible();
});
