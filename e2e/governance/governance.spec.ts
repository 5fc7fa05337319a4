import { expect, test, type Browser } from '@playwright/test';
import { runFromLauncher, saveArtifact } from '../support/helpers';
import { E2E_PASSWORD, E2E_USERS, storageStateOf, type E2eUser } from '../support/users';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();

test('a browser without a session is sent to sign in, a wrong password is refused, and signing out ends the session', async ({ browser }) => {
  const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await page.goto('/runs');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns$/);
  await page.getByLabel('Email').fill(E2E_USERS.viewer.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('p[role=alert]')).toHaveText('That email and password do not match a dashboard user.');
  // The API answers 401 rather than redirecting.
  expect((await page.request.get('/api/suites/abc')).status()).toBe(401);

  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('viewer@e2e.test · viewer · kittiwake');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/approvals');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fapprovals$/);
  await page.context().close();
});

test('a reviewer signs in, approves a pending restock, and the run completes; a viewer cannot approve', async ({ browser }) => {
  // The operator runs S024 (750 units, above the auto-approve limit) with the policy attached: it pauses.
  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId: 'S024', governed: true });
  await expect(operator.getByTestId('waiting-banner')).toContainText('waiting for approval');
  await expect(operator.getByTestId('waiting-banner')).toContainText('create_restock_request');
  // A paused run has no answer yet, and says so rather than showing an empty "Final answer".
  await expect(operator.getByTestId('final-answer')).toHaveText(/^No answer yet: the run is paused until a reviewer decides on create_restock_request/);
  // The queue is sorted by time left (issue 34): this run's request is found by its id, not its place.
  const requestId = (await operator.getByRole('link', { name: 'Open the approval request' }).getAttribute('href'))!.split('/').pop()!;
  await operator.goto('/runs');
  await expect(operator.getByTestId('waiting-for-approval').first()).toBeVisible();
  await operator.context().close();

  // A viewer sees the request but gets no way to decide it.
  const viewer = await signedInAs(browser, 'viewer');
  await viewer.goto('/approvals');
  await viewer.getByTestId('approvals-table').getByRole('link', { name: requestId.slice(-8), exact: true }).click();
  await expect(viewer.getByTestId('not-reviewer')).toHaveText('Only a reviewer of tenant kittiwake can approve or deny this request.');
  await expect(viewer.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await viewer.context().close();

  // The reviewer signs in through the form and lands on the queue they asked for.
  const reviewer = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await reviewer.goto('/approvals');
  await expect(reviewer).toHaveURL(/\/sign-in/);
  await reviewer.getByLabel('Email').fill(E2E_USERS.reviewer.email);
  await reviewer.getByLabel('Password').fill(E2E_PASSWORD);
  await reviewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(reviewer).toHaveURL(/\/approvals$/);
  await expect(reviewer.getByTestId('signed-in-as')).toContainText('reviewer@e2e.test · reviewer · kittiwake');
  await saveArtifact(reviewer, 'approvals');

  await reviewer.getByTestId('approvals-table').getByRole('link', { name: requestId.slice(-8), exact: true }).click();
  await expect(reviewer.getByTestId('proposal-arguments')).toContainText('"quantity": 750');
  await expect(reviewer.getByTestId('policy-rule')).toHaveText('restock-above-auto-approve');
  await expect(reviewer.getByTestId('digest')).toHaveText(/^[0-9a-f]{64}$/);
  for (const field of ['actor', 'tenant', 'tool', 'toolVersion', 'schemaDigest', 'arguments', 'policyVersion', 'expiresAt']) {
    await expect(reviewer.getByTestId('bound-fields')).toContainText(field);
  }
  await expect(reviewer.getByTestId('replay-link')).toHaveAttribute('href', `/runs/${runId}`);
  await saveArtifact(reviewer, 'approval-request');

  await reviewer.getByLabel(/Reason/).fill('Supplier confirmed; within this quarter’s budget.');
  await reviewer.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.getByTestId('decide-outcome')).toHaveText(/^Approved — RSR-\d{4} created\. The run resumed and finished \(COMPLETED\)\.$/);
  await expect(reviewer.getByTestId('approval-status')).toHaveText('approved');
  await expect(reviewer.getByTestId('decisions')).toContainText('reviewer@e2e.test approved');

  // The run finished, with the restock written once and journaled.
  await reviewer.getByTestId('replay-link').click();
  await expect(reviewer).toHaveURL(new RegExp(`/runs/${runId}(\\?transition=\\d+)?$`));
  await expect(reviewer.getByTestId('waiting-banner')).toHaveCount(0);
  await expect(reviewer.getByText('COMPLETED').first()).toBeVisible();
  // The answer reports the approved restock, not one still waiting for the approval just given.
  await expect(reviewer.getByTestId('final-answer')).toContainText('status open');
  await expect(reviewer.getByTestId('final-answer')).not.toContainText(/pending[_ ]approval|need manager approval/);
  await reviewer.goto(`/effects?runId=${runId}`);
  await expect(reviewer.getByTestId('effects-table')).toContainText('committed');
  // Each entry shows the arguments it was written with.
  await expect(reviewer.getByTestId('effects-table').getByRole('tree', { name: 'Arguments of create_restock_request' })).toContainText('quantity:750');
  await saveArtifact(reviewer, 'effects');
  await reviewer.context().close();
});

test('controls a role cannot use are hidden or disabled with the reason, and a requester sees only why they cannot decide their own request', async ({ browser, page }) => {
  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto('/runs');
  await expect(reviewer.getByText('Run a case or a query')).toHaveCount(0);
  await expect(reviewer.getByTestId('role-note')).toHaveText('Running a case or a query needs the operator role; you are signed in as reviewer.');
  await expect(reviewer.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await reviewer.goto('/matrix');
  await expect(reviewer.getByTestId('run-matrix')).toBeDisabled();
  await expect(reviewer.getByTestId('role-note')).toContainText('needs the operator role');
  await reviewer.goto('/instructor');
  await expect(reviewer.getByTestId('instructor-run-suite')).toBeDisabled();
  await reviewer.context().close();

  // The admin (also a reviewer) starts a run that pauses: on their own request the decision buttons are disabled, with the reason.
  await runFromLauncher(page, { caseId: 'S025', governed: true });
  await page.getByRole('link', { name: 'Open the approval request' }).click();
  // The note alone: no reason box and no greyed buttons that could only be refused.
  await expect(page.getByTestId('self-note')).toContainText('another reviewer must decide');
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Deny' })).toHaveCount(0);
  await expect(page.getByLabel(/Reason/)).toHaveCount(0);
  // The "now" column says why most fields have no current value.
  await expect(page.getByTestId('now-not-rechecked').first()).toContainText('not re-checked');
  await expect(page.getByTestId('bound-fields').locator('caption')).toContainText('cannot change');

  // The runs table filters to the runs waiting for approval.
  await page.goto('/runs');
  await page.getByLabel('Approval').selectOption('paused');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=paused/);
  const rows = page.locator('[data-testid=runs-table] tbody tr');
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain('waiting for approval');
});

test('a reviewer moves through the queue with j and k, and a denial reason ending in a full stop is quoted with one', async ({ browser }) => {
  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId: 'S024', governed: true });
  const request = await operator.getByRole('link', { name: 'Open the approval request' }).getAttribute('href');
  await operator.context().close();

  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto('/approvals');
  const links = reviewer.getByTestId('approvals-table').locator('tbody a[data-row-link]');
  const first = await links.first().getAttribute('href');
  await reviewer.locator('body').press('j');
  await expect(links.first()).toBeFocused();
  if ((await links.count()) > 1) {
    await reviewer.keyboard.press('j');
    await expect(links.nth(1)).toBeFocused();
    await reviewer.keyboard.press('k');
  }
  await expect(links.first()).toBeFocused();
  await reviewer.keyboard.press('Enter');
  await reviewer.waitForURL(`**${first}`);

  await reviewer.goto(request!);
  await reviewer.getByLabel(/Reason/).fill('Not this week.');
  await reviewer.getByRole('button', { name: 'Deny' }).click();
  await expect(reviewer.getByTestId('decide-outcome')).toContainText('Denied — the run was told.');
  await reviewer.goto(`/runs/${runId}`);
  const answer = reviewer.getByTestId('final-answer');
  await expect(answer).toContainText('Not this week');
  await expect(answer).not.toContainText('..');
  await reviewer.context().close();
});
