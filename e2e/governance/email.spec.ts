/**
 * Issue 34 in the browser: an admin adds an email notification (a missing SMTP setting refused
 * naming the field), a governed run pauses, the reviewer's mailbox on a local SMTP server
 * (smtp-server on 127.0.0.1) receives the request with its link; the link needs a sign-in, and the
 * reviewer then decides from the keyboard — `a` arms the approval with the reason box focused, Enter
 * approves — with the user's question shown beside the proposal. In the queue, `j` picks a row and
 * `d` opens its reason box; Enter denies.
 */
import { expect, test, type Browser } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { E2E_PASSWORD, E2E_USERS, storageStateOf, type E2eUser } from '../support/users';
import { startSmtpReceiver, type SmtpReceiver } from '../../lib/notify/testing/smtp-receiver';
import { argumentLeak } from '../../lib/notify/testing/leaks';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();

let smtp: SmtpReceiver;
test.beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
test.afterAll(async () => {
  await smtp?.close();
});

test('a reviewer gets the email, opens its link, signs in and approves from the keyboard', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await signedInAs(browser, 'admin');
  await admin.goto('/webhooks');
  const form = admin.getByTestId('add-email');
  await form.getByLabel(/Recipients/).fill('reviewers@example.test');
  await form.getByRole('button', { name: 'Add email notification' }).click();
  // The e2e server has no STOCKROOM_SMTP_HOST: the host is missing from both places and named.
  await expect(admin.locator('#em-smtpHost-error')).toHaveText(/smtpHost: missing/);
  // The form is cleared after each answer (like the webhook form): fill it again.
  await form.getByLabel(/Recipients/).fill('reviewers@example.test');
  await form.getByLabel('SMTP host').fill(smtp.host);
  await form.getByLabel('Port').fill(String(smtp.port));
  await form.getByLabel('Sender address').fill('stockroom@example.test');
  await form.getByRole('button', { name: 'Add email notification' }).click();
  await expect(admin.getByTestId('webhooks-table')).toContainText('mailto:reviewers@example.test');
  await admin.context().close();

  const operator = await signedInAs(browser, 'operator');
  const runId = await runFromLauncher(operator, { caseId: 'S024', governed: true });
  await operator.context().close();

  let link = '';
  await expect
    .poll(() => {
      const mail = smtp.received.find((m) => m.subject.startsWith('Approval needed') && m.text.includes('/approvals/apr_'));
      link = mail ? (/Open it: (\S+)/.exec(mail.text)?.[1] ?? '') : '';
      return link;
    }, { timeout: 60_000 })
    .toMatch(/\/approvals\/apr_/);
  const mail = smtp.received.find((m) => m.text.includes(link))!;
  expect(mail.to).toEqual(['reviewers@example.test']);
  // No arguments in the mail: the 750 units stay behind the sign-in.
  expect(mail.raw).not.toMatch(argumentLeak(750));

  const reviewer = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await reviewer.goto(link);
  await expect(reviewer).toHaveURL(/\/sign-in/);
  await reviewer.getByLabel('Email').fill(E2E_USERS.reviewer.email);
  await reviewer.getByLabel('Password').fill(E2E_PASSWORD);
  await reviewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(reviewer).toHaveURL(new URL(link).pathname);
  await expect(reviewer.getByTestId('approval-status')).toHaveText('pending');
  // The user's question beside the proposal: the call was asked for.
  await expect(reviewer.getByTestId('user-question')).toHaveText('Restock 750 units of SKU-2027.');
  await expect(reviewer.getByTestId('proposal-arguments')).toContainText('750');
  await expect(reviewer.getByTestId('decide-keys')).toContainText('a approve');

  await reviewer.locator('main h1').click(); // the keys are the page's, not a field's
  await reviewer.keyboard.press('a');
  await expect(reviewer.getByTestId('armed-verdict')).toContainText('Approving');
  await expect(reviewer.getByLabel(/Reason/)).toBeFocused();
  await reviewer.keyboard.type('Asked for by the user.');
  await reviewer.keyboard.press('Enter');
  await expect(reviewer.getByTestId('approval-status')).toHaveText('approved');
  await reviewer.context().close();
  expect(runId).toMatch(/^[0-9a-f]+$/);

  await expect.poll(() => smtp.received.some((m) => m.subject.startsWith('Decided (approved)')), { timeout: 60_000 }).toBe(true);
});

test('in the queue, j picks a request and d opens its reason box; Enter denies it', async ({ browser }) => {
  test.setTimeout(180_000);
  const operator = await signedInAs(browser, 'operator');
  await runFromLauncher(operator, { caseId: 'S024', governed: true });
  await operator.context().close();
  const reviewer = await signedInAs(browser, 'reviewer');
  await reviewer.goto('/approvals?tab=pending');
  const rows = reviewer.getByTestId('approvals-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  // Pressed until the first row takes the focus (a key before hydration reaches no handler).
  await expect
    .poll(async () => {
      await reviewer.keyboard.press('j');
      return reviewer.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-request-id') ?? null);
    })
    .not.toBeNull();
  const picked = await reviewer.evaluate(() => document.activeElement!.closest('tr')!.getAttribute('data-request-id')!);
  await reviewer.keyboard.press('d');
  await expect(reviewer.getByTestId('queue-decide')).toBeVisible();
  await expect(reviewer.locator('#queue-reason')).toBeFocused();
  await reviewer.keyboard.type('Overstocked already.');
  await reviewer.keyboard.press('Enter');
  await expect(reviewer.getByTestId('queue-decide-note')).toContainText(picked.slice(-8));
  await expect(reviewer.locator(`tr[data-request-id="${picked}"]`)).toHaveCount(0);
  await expect(rows).toHaveCount(before - 1);
  await reviewer.goto(`/approvals/${picked}`);
  await expect(reviewer.getByTestId('approval-status')).toHaveText('denied');
  await reviewer.context().close();
});
