import { expect, test, type Browser } from '@playwright/test';
import { calibrateJudge, defaultCalibrationFile, loadCalibrationSet } from '../../lib/eval/calibration';
import { FakeJudge } from '../../lib/eval/judge';
import { storageStateOf, type E2eUser } from '../support/users';
import { startSecondServer } from '../support/second-server';

const signedInAs = async (browser: Browser, user: E2eUser) => (await browser.newContext({ storageState: storageStateOf(user) })).newPage();

test('an admin calibrates the fake judge from the Judge page; figures, items and tenant scoping', async ({ page, browser }) => {
  // The figures the page must show, computed here from the same calibration set.
  const expected = await calibrateJudge({ judge: new FakeJudge('v2'), set: loadCalibrationSet(defaultCalibrationFile()) });

  await page.goto('/runs');
  // Judge is one of the pages behind the header's "More" (the header keeps one row at 1280 px).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Judge' }).click();
  await expect(page.getByRole('heading', { name: 'Judge', level: 1 })).toBeVisible();
  // The link sits behind More again once the page has changed; opened, it marks the page one is on.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Judge' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Escape');

  // The judge is picked with the run form's model picker; on the course's set (too few labels yet).
  await expect(page.getByLabel('Judge', { exact: true })).toHaveValue('fake');
  await page.getByRole('radio', { name: /the course's set/ }).check();
  await page.getByRole('button', { name: 'Run calibration' }).click();
  await expect(page).toHaveURL(/\/judge\?id=/);
  const id = new URL(page.url()).searchParams.get('id')!;

  const detail = page.getByTestId('calibration-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toContainText('fake-judge on calibration_v1.jsonl');
  const overall = page.getByTestId('calibration-figures').getByRole('row', { name: /overall/ });
  await expect(overall).toContainText(String(expected.overall.agreement));
  await expect(overall).toContainText(String(expected.overall.kappa));
  await expect(page.getByTestId('calibration-figures').getByRole('row', { name: /faithfulness/ })).toContainText(String(expected.faithfulness.kappa));
  await expect(page.getByTestId('calibration-items').locator('tbody tr')).toHaveCount(expected.items.length);
  const disagreeing = expected.items.filter((i) => i.verdict !== null && i.verdict !== i.human);
  await expect(page.locator('[data-disagrees="true"]')).toHaveCount(disagreeing.length);
  for (const i of disagreeing) await expect(page.getByTestId(`calibration-item-${i.id}`)).toContainText('disagrees');
  await expect(page.getByTestId('calibrations-table')).toContainText('fake-judge');

  // A bad judge name is refused at the field, and nothing is stored.
  const rows = await page.getByTestId('calibrations-table').locator('tbody tr').count();
  await page.getByLabel('Judge', { exact: true }).selectOption('openai');
  await page.getByLabel('Model name').fill('');
  await page.getByRole('button', { name: 'Run calibration' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'a judge is fake or' })).toBeVisible();
  await expect(page.getByTestId('calibrations-table').locator('tbody tr')).toHaveCount(rows);

  // A viewer reads the results but gets no form; another tenant's admin sees none of them.
  const viewer = await signedInAs(browser, 'viewer');
  await viewer.goto(`/judge?id=${id}`);
  await expect(viewer.getByTestId('calibration-detail')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Run calibration' })).toHaveCount(0);
  const puffin = await signedInAs(browser, 'puffinAdmin');
  await puffin.goto(`/judge?id=${id}`);
  await expect(puffin.getByRole('heading', { name: 'Judge', level: 1 })).toBeVisible();
  await expect(puffin.getByTestId('calibration-detail')).toHaveCount(0);
  await expect(puffin.getByRole('alert').filter({ hasText: 'does not exist' })).toBeVisible();
  await expect(puffin.locator('body')).not.toContainText(id);
});

test('a server without the calibration set says what is missing, and offers calibrating on labels with how many more are needed', async ({ page }) => {
  const missing = '/nonexistent/stockroom-e2e/calibration_v1.jsonl';
  const server = await startSecondServer({ STOCKROOM_CALIBRATION_SET: missing });
  try {
    await page.goto(`${server.url}/judge`);
    const note = page.getByTestId('calibration-missing');
    // Named by its file name: the server's directories are not shown (nor sent) to anyone, admins included.
    await expect(note).toContainText('there is no calibration set calibration_v1.jsonl on this server');
    await expect(note).toContainText('STOCKROOM_CALIBRATION_SET');
    expect(await (await page.request.get(`${server.url}/judge`)).text()).not.toContain('/nonexistent/stockroom-e2e');
    // Not a dead end: the tenant's labels are the source, and the page says how many more it needs.
    await expect(page.getByRole('radio', { name: /this tenant's labels/ })).toBeChecked();
    await expect(page.getByTestId('labels-needed')).toContainText('more in the labelling queue');
    await expect(page.getByRole('button', { name: 'Run calibration' })).toBeDisabled();
  } finally {
    await server.stop();
  }
  // The e2e server has the course's set: the page names it and offers the form.
  const expected = loadCalibrationSet(defaultCalibrationFile());
  await page.goto('/judge');
  await expect(page.getByTestId('calibration-set')).toContainText(`the course's ${expected.name} (${expected.items.length} human-labelled items)`);
  await expect(page.getByRole('button', { name: 'Run calibration' })).toBeVisible();
  await expect(page.getByTestId('calibration-missing')).toHaveCount(0);
});
