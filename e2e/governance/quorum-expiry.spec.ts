/**
 * The approval rules' time and numbers in the browser (issue 34), under the suite's policy
 * (e2e/support/policy.ts): a restock of 777 units needs two distinct reviewers — the first approval
 * is recorded as "1 of 2" and the run waits, the second resumes it and the write happens once; a
 * restock of 778 units is escalated to the admins in the queue after a few seconds, then expires,
 * and the run reads the expiry as a refusal and finishes without writing.
 */
import { expect, test, type Browser } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { ESCALATE_AFTER_S, ESCALATING_QUANTITY, EXPIRES_AFTER_S, QUORUM_QUANTITY } from '../support/policy';
import { storageStateOf, type E2eUser } from '../support/users';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();

async function pausedRestock(browser: Browser, quantity: number): Promise<{ runId: string; requestPath: string }> {
  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { query: `Restock ${quantity} units of SKU-2027.`, governed: true });
  await expect(operator.getByTestId('waiting-banner')).toContainText('waiting for approval');
  const requestPath = (await operator.getByRole('link', { name: 'Open the approval request' }).getAttribute('href'))!;
  await operator.context().close();
  return { runId, requestPath };
}

test('two reviewers: the first approval is recorded as 1 of 2 and the run waits; the second resumes it and the restock is written once', async ({ browser }) => {
  test.setTimeout(180_000);
  const { runId, requestPath } = await pausedRestock(browser, QUORUM_QUANTITY);

  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto(requestPath);
  await expect(reviewer.getByTestId('policy-rule')).toHaveText('restock-777-two-reviewers');
  await expect(reviewer.getByTestId('quorum-progress')).toHaveText('0 of 2 approvals so far');
  await reviewer.getByLabel(/Reason/).fill('Checked the supplier quote.');
  await reviewer.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.getByTestId('decide-outcome')).toHaveText('Recorded. 1 of 2 approvals so far; the run waits for the rest.');
  await expect(reviewer.getByTestId('approval-status')).toHaveText('pending');
  await reviewer.goto(`/effects?runId=${runId}`);
  await expect(reviewer.getByTestId('effects-table')).toHaveCount(0);
  await reviewer.context().close();

  // The same reviewer cannot be the second; another one (the admin, a reviewer too) can.
  const admin = await signedInAs(browser, 'admin');
  await admin.goto(requestPath);
  await expect(admin.getByTestId('quorum-progress')).toHaveText('1 of 2 approvals so far');
  await admin.getByLabel(/Reason/).fill('Second pair of eyes: agreed.');
  await admin.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByTestId('decide-outcome')).toHaveText(/^Approved — RSR-\d{4} created\. The run resumed and finished \(COMPLETED\)\.$/);
  await expect(admin.getByTestId('decisions')).toContainText('reviewer@e2e.test approved');
  await admin.goto(`/effects?runId=${runId}`);
  await expect(admin.getByTestId('effects-table').locator('tbody tr')).toHaveCount(1);
  await expect(admin.getByTestId('effects-table')).toContainText('committed');
  await admin.context().close();
});

test('a request nobody decides is escalated to the admins in the queue, then expires, and the run reads it as a refusal without writing', async ({ browser }) => {
  test.setTimeout(180_000);
  const { runId, requestPath } = await pausedRestock(browser, ESCALATING_QUANTITY);
  const requestId = requestPath.split('/').pop()!;

  const reviewer = await signedInAs(browser, 'reviewer');
  const row = reviewer.getByTestId('approvals-table').locator('tr', { has: reviewer.getByRole('link', { name: requestId.slice(-8), exact: true }) });
  // Before the escalation time the row is not escalated; after it, it says to whom.
  await reviewer.goto('/approvals?tab=pending');
  await expect(row).toBeVisible();
  await expect(async () => {
    await reviewer.reload();
    await expect(row.getByTestId('time-left')).toContainText('escalated to admins', { timeout: 1_000 });
  }).toPass({ timeout: (ESCALATE_AFTER_S + 30) * 1000 });

  // Past its expiry the request is expired (never pending again), and the sweep resumes the run with a refusal.
  await expect(async () => {
    await reviewer.goto(requestPath);
    await expect(reviewer.getByTestId('approval-status')).toHaveText('expired', { timeout: 1_000 });
  }).toPass({ timeout: (EXPIRES_AFTER_S + 30) * 1000 });
  await expect(reviewer.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(async () => {
    await reviewer.goto(requestPath);
    await expect(reviewer.getByTestId('request-outcome')).toHaveText('expired — nobody decided in time; the run was told', { timeout: 1_000 });
  }).toPass({ timeout: 90_000 });
  await reviewer.goto(`/runs/${runId}`);
  await expect(reviewer.getByTestId('waiting-banner')).toHaveCount(0);
  await expect(reviewer.getByTestId('final-answer')).not.toHaveText(/^No answer yet/);
  await reviewer.goto(`/effects?runId=${runId}`);
  await expect(reviewer.getByTestId('effects-table')).toHaveCount(0);
  await reviewer.context().close();
});
