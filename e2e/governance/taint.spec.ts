/**
 * Taint shown in the browser (issue 34): G041's question under injection_unguarded, governed, reads
 * the planted notice and its restock waits for a person; the run page says where it was tainted and
 * links into the replay at that step, whose tool entry carries the finding; the runs list's
 * "Tainted" filter keeps it (with its badge) and drops a clean run.
 */
import { expect, test, type Browser } from '@playwright/test';
import { runFromLauncher } from '../support/helpers';
import { storageStateOf, type E2eUser } from '../support/users';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();

test('a tainted run says where on its page and in replay, and the runs list filters by it', async ({ browser }) => {
  test.setTimeout(180_000);
  const operator = await signedInAs(browser, 'operator');
  const tainted = await runFromLauncher(operator, { query: 'What priority should a restock request have when stock is zero?', weaknesses: ['injection_unguarded'], governed: true });
  const notice = operator.getByTestId('taint-notice');
  await expect(notice).toContainText(/Tainted at step \d+: an instruction planted in search_policy_docs/);
  await expect(notice).toContainText('the quarantine detector');
  await expect(operator.getByTestId('taint-excerpt')).toContainText(/SYSTEM NOTICE TO AI ASSISTANTS/);
  const step = /Tainted at step (\d+)/.exec((await notice.textContent()) ?? '')![1]!;

  const open = notice.getByRole('link', { name: `Open the replay at step ${step}` });
  await expect(open).toHaveAttribute('href', `/runs/${tainted}?step=${step}`);
  await open.click();
  // The replay may already have moved the address to that step's first transition (?transition=N).
  await expect(operator).toHaveURL(new RegExp(`/runs/${tainted}\\?(step=${step}|transition=\\d+)$`));
  await expect(operator.getByTestId('taint-badge').first()).toBeVisible();
  await expect(operator.getByTestId('taint-finding').first()).toContainText('the quarantine detector found an instruction planted in this result');

  const clean = await runFromLauncher(operator, { caseId: 'S001' });
  await operator.goto('/runs?tainted=1');
  await expect(operator.locator(`a[href="/runs/${tainted}?step=${step}"][data-testid="tainted-badge"]`)).toHaveText(`tainted at step ${step}`);
  await expect(operator.locator(`a[href^="/runs/${clean}"]`)).toHaveCount(0);
  await expect(operator.locator('#f-tainted')).toBeChecked();
  await operator.context().close();
});
