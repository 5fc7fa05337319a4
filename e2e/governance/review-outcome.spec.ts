/**
 * The reviewer of issue 43: an approval's outcome is the call's outcome (the reply, the request, the
 * queue, the run and the runs list say what happened to the approved write), the limit the ledger
 * enforces is shown and flagged before anyone approves, the request page puts the decision above
 * the fold at 1400×900 with the product's context below it, and after deciding by keyboard focus
 * lands on the outcome.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { storageStateOf, type E2eUser } from '../support/users';

test.use({ viewport: { width: 1400, height: 900 } });

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user), viewport: { width: 1400, height: 900 } })).newPage();

/** The catalogue's product, to check the page against the data rather than against figures written here. */
function product(sku: string): { stock_level: number; reorder_point: number; name: string } {
  const catalogue = JSON.parse(readFileSync('data/catalogue.json', 'utf8')) as { products?: unknown[] } | unknown[];
  const list = (Array.isArray(catalogue) ? catalogue : (catalogue.products ?? [])) as { sku: string; stock_level: number; reorder_point: number; name: string }[];
  return list.find((p) => p.sku === sku)!;
}

/** The operator runs `caseId` under the policy; it pauses. Returns the run id and its request's path. */
async function pausedRequest(browser: Browser, caseId: string): Promise<{ runId: string; request: string }> {
  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId, governed: true });
  const request = (await operator.getByRole('link', { name: 'Open the approval request' }).getAttribute('href'))!;
  await operator.context().close();
  return { runId, request };
}

/** Types a reason and presses Approve or Deny from the keyboard alone. */
async function decideByKeyboard(page: Page, verdict: 'Approve' | 'Deny', reason: string): Promise<void> {
  await page.getByLabel(/Reason/).focus();
  await page.keyboard.type(reason);
  await page.keyboard.press('Tab');
  if (verdict === 'Deny') await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: verdict })).toBeFocused();
  await page.keyboard.press('Enter');
}

test('approving S025 (4,500 units) says the ledger rejected the write everywhere, and the limit is flagged before anyone approves', async ({ browser }) => {
  const { runId, request } = await pausedRequest(browser, 'S025');
  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto(request);

  // Before deciding: the ledger's limit is shown and the proposal is flagged as breaking it.
  await expect(reviewer.getByTestId('limit-breach')).toContainText('quantity 4,500 is above the maximum of 4,000');
  await expect(reviewer.getByTestId('declared-limits')).toContainText('restock ledger');

  // The decision sits above the fold; the context comes after it and the digest after that.
  await expect(reviewer.getByRole('button', { name: 'Approve' })).toBeInViewport({ ratio: 1 });
  await expect(reviewer.getByRole('button', { name: 'Deny' })).toBeInViewport({ ratio: 1 });
  const top = async (testId: string) => (await reviewer.getByTestId(testId).boundingBox())!.y;
  expect(await top('proposal-arguments')).toBeLessThan(await top('review-context'));
  expect(await top('review-context')).toBeLessThan(await top('digest'));

  // The product, its stock and reorder point, read through the agent's own tool on the run's data.
  const p = product('SKU-2037');
  const context = reviewer.getByTestId('product-context');
  await expect(context).toContainText('SKU-2037');
  await expect(context).toContainText(p.name);
  await expect(reviewer.getByTestId('stock-level')).toContainText(p.stock_level.toLocaleString('en'));
  await expect(reviewer.getByTestId('reorder-point')).toContainText(p.reorder_point.toLocaleString('en'));
  await expect(reviewer.getByTestId('open-requests')).toBeVisible();

  // Approved by keyboard: focus moves to the outcome, which says what happened to the call.
  await decideByKeyboard(reviewer, 'Approve', 'Large order confirmed by the customer.');
  const outcome = reviewer.getByTestId('decide-outcome');
  await expect(outcome).toHaveText(/^Approved — the ledger rejected it: rejected: quantities above 4,000 units are rejected automatically/);
  await expect(outcome).toBeFocused();
  await expect(outcome).toHaveAttribute('role', 'status');
  await expect(outcome).not.toContainText('Approved. The run resumed');

  // The request page and the queue say the same.
  await expect(reviewer.getByTestId('request-outcome')).toHaveText(/^approved — the ledger rejected it: rejected: quantities above 4,000 units/);
  await reviewer.goto('/approvals?tab=approved');
  const row = reviewer.getByTestId('approvals-table').locator('tr', { has: reviewer.locator(`a[href="${request}"]`) });
  await expect(row.getByTestId('request-outcome')).toContainText('approved — the ledger rejected it');

  // The run completed, but its governed write failed: not a plain green COMPLETED, in the replay or the runs list.
  await reviewer.goto(`/runs/${runId}`);
  const badge = reviewer.getByTestId('termination-badge').first();
  await expect(badge).toHaveText('COMPLETED · its write failed');
  await expect(badge).not.toHaveClass(/\bgood\b/);
  await expect(reviewer.getByTestId('governance-request-outcome')).toContainText('approved — the ledger rejected it');
  await reviewer.goto('/runs');
  const runRow = reviewer.getByTestId('runs-table').locator('tr', { has: reviewer.locator(`a[href="/runs/${runId}"]`) });
  await expect(runRow.getByTestId('termination-badge')).toHaveText('COMPLETED · its write failed');
  await reviewer.context().close();
});

test('approving S024 names the restock it created; denying by keyboard says the run was told and focuses the outcome', async ({ browser }) => {
  const approved = await pausedRequest(browser, 'S024');
  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto(approved.request);
  await expect(reviewer.getByTestId('limit-breach')).toHaveCount(0);
  await decideByKeyboard(reviewer, 'Approve', 'Supplier confirmed.');
  await expect(reviewer.getByTestId('decide-outcome')).toHaveText(/^Approved — RSR-\d{4} created\. The run resumed and finished \(COMPLETED\)\.$/);
  await expect(reviewer.getByTestId('decide-outcome')).toBeFocused();
  await expect(reviewer.getByTestId('request-outcome')).toHaveText(/^approved — RSR-\d{4} created$/);
  await reviewer.goto(`/runs/${approved.runId}`);
  await expect(reviewer.getByTestId('termination-badge').first()).toHaveText('COMPLETED');

  const denied = await pausedRequest(browser, 'S024');
  await reviewer.goto(denied.request);
  await decideByKeyboard(reviewer, 'Deny', 'Not this week.');
  await expect(reviewer.getByTestId('decide-outcome')).toHaveText(/^Denied — the run was told\./);
  await expect(reviewer.getByTestId('decide-outcome')).toBeFocused();
  await reviewer.goto('/approvals?tab=denied');
  const row = reviewer.getByTestId('approvals-table').locator('tr', { has: reviewer.locator(`a[href="${denied.request}"]`) });
  await expect(row.getByTestId('request-outcome')).toHaveText('denied — the run was told');
  await reviewer.context().close();
});
