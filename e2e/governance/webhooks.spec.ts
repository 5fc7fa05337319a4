import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { E2E_PASSWORD, E2E_USERS, storageStateOf, type E2eUser } from '../support/users';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../../lib/notify/testing/receiver';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();
const SECRET = `whsec_${Buffer.from('the e2e webhook secret, 32 bytes').toString('base64')}`;

async function serious(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test('a reviewer gets the signed webhook, opens its link, signs in and approves; the delivery log shows it delivered', async ({ browser }) => {
  test.setTimeout(240_000);
  // The admin adds the webhook from the page, by keyboard; a bad URL is refused naming the field first.
  const admin = await signedInAs(browser, 'admin');
  await admin.goto('/webhooks');
  await admin.getByLabel('URL (http or https)').fill('ftp://hooks.example.test/x');
  await admin.getByLabel('Signing secret (empty: generate one)').fill(SECRET);
  await admin.getByRole('button', { name: 'Add webhook' }).press('Enter');
  // The browser's own check refuses a non-URL first; ftp: passes it and the server names the field.
  await expect(admin.locator('#wh-url-error')).toHaveText(/url: must be http or https/);
  await admin.getByLabel('URL (http or https)').fill(receiver.url);
  await admin.getByLabel('Signing secret (empty: generate one)').fill(SECRET);
  await admin.getByRole('button', { name: 'Add webhook' }).click();
  await expect(admin.getByTestId('webhooks-table')).toContainText(receiver.url);
  for (const scheme of ['light', 'dark'] as const) {
    await admin.emulateMedia({ colorScheme: scheme });
    expect(await serious(admin), scheme).toEqual([]);
  }

  // The operator's governed run pauses; the receiver gets the signed request with a link.
  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId: 'S024', governed: true });
  await operator.context().close();
  let link = '';
  await expect
    .poll(() => {
      for (const r of receiver.received) {
        const body = verifyStandardWebhook(SECRET, r) as { type: string; data: { runId: string; link: string } };
        if (body.type === 'approval.requested' && body.data.runId === runId) link = body.data.link;
      }
      return link;
    }, { timeout: 60_000 })
    .toMatch(/\/approvals\/apr_/);

  // The link does nothing by itself: it needs a sign-in, then the reviewer decides.
  const reviewer = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await reviewer.goto(link);
  await expect(reviewer).toHaveURL(/\/sign-in/);
  await reviewer.getByLabel('Email').fill(E2E_USERS.reviewer.email);
  await reviewer.getByLabel('Password').fill(E2E_PASSWORD);
  await reviewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(reviewer).toHaveURL(new URL(link).pathname);
  await expect(reviewer.getByTestId('quorum-progress')).toHaveText('0 of 1 approval so far');
  await expect(reviewer.getByTestId('time-left')).toHaveText(/left$/);
  await reviewer.getByLabel(/Reason/).fill('Supplier confirmed.');
  await reviewer.getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.getByTestId('approval-status')).toHaveText('approved');
  await reviewer.context().close();

  await expect
    .poll(() => receiver.received.some((r) => (verifyStandardWebhook(SECRET, r) as { type: string; data: { runId: string } }).type === 'approval.decided'), { timeout: 60_000 })
    .toBe(true);
  await admin.goto('/webhooks');
  // The log of this receiver's endpoint (an earlier spec's email endpoint may be listed first).
  await admin.getByTestId('webhooks-table').getByRole('link', { name: receiver.url, exact: true }).click();
  await expect(admin.getByTestId('webhooks-table').getByRole('link', { name: receiver.url, exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(admin.getByTestId('deliveries-table')).toContainText('approval.decided');
  await expect(admin.getByTestId('deliveries-table').locator('tr', { hasText: 'approval.requested' }).first()).toContainText('delivered');

  // Only admins see webhooks.
  const viewer = await signedInAs(browser, 'viewer');
  await viewer.goto('/webhooks');
  await expect(viewer.getByTestId('role-note')).toContainText('needs the admin role');
  await expect(viewer.getByTestId('webhooks-table')).toHaveCount(0);
  await viewer.context().close();
  await admin.context().close();
});

test('the approval queue lists pending requests by time left with the quorum’s progress', async ({ browser }) => {
  const operator = await signedInAs(browser, 'operator');
  await runFromLauncher(operator, { caseId: 'S024', governed: true });
  await operator.context().close();
  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto('/approvals?tab=pending');
  const table = reviewer.getByTestId('approvals-table');
  await expect(table.getByRole('columnheader', { name: 'Time left' })).toBeVisible();
  await expect(table.getByTestId('quorum-progress').first()).toHaveText('0 of 1 approval');
  const left = await table.getByTestId('time-left').allTextContents();
  expect(left.length).toBeGreaterThan(0);
  for (const t of left) expect(t).toMatch(/left/);
  await reviewer.context().close();
});
