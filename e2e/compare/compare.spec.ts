import { expect, test } from '@playwright/test';
import { runFromLauncher, saveArtifact } from '../support/helpers';
import { answerColumns } from '../../lib/charts/answer-diff';

test('compares a stock lookup with and without ambiguous_tool_desc and highlights the different tool', async ({ page }) => {
  await page.goto('/instructor');
  await page.locator('[data-flag=ambiguous_tool_desc]').click();
  await page.getByLabel('Golden case').selectOption('S008');
  await page.getByTestId('instructor-run-case').click();
  const result = page.getByTestId('instructor-case-result');
  await expect(result).toBeVisible();
  await expect(result.locator('[data-score=toolSelection]')).toHaveClass(/worse/);

  await result.getByRole('link', { name: 'Compare the two trajectories step by step' }).click();
  await page.waitForURL(/\/compare\?a=.+&b=.+/);
  const table = page.getByTestId('compare-table');
  await expect(table.locator('tr[data-difference=different_tool]').first()).toBeVisible();
  await expect(table.locator('tr[data-difference=different_tool]').first()).toContainText('different tool');
  await expect(page.getByTestId('compare-summary')).toContainText('step(s) differ');
  await saveArtifact(page, 'compare');
});

test('compare takes the 8-character ids, finds the same case under no weakness from replay, searches, and diffs the answers inline', async ({ page }) => {
  const weak = await runFromLauncher(page, { caseId: 'S008', weaknesses: ['ambiguous_tool_desc'] });
  // From replay: the same case under no weakness. None is stored yet in this fresh run of the case, so the page offers to run it.
  await page.getByTestId('compare-no-weakness').click();
  await expect(page).toHaveURL(/\/compare\?a=.+&with=none$/);
  const runNow = page.getByTestId('run-same-case');
  if (await page.getByTestId('no-same-case').isVisible()) await runNow.click();
  await page.waitForURL(/\/compare\?a=.+&b=.+/);
  await expect(page.getByTestId('compare-table')).toBeVisible();
  const url = new URL(page.url());
  expect(url.searchParams.get('a')).toBe(weak);
  const baseline = url.searchParams.get('b')!;

  // The short ids shown everywhere are accepted.
  await page.goto(`/compare?a=${weak.slice(-8)}&b=${baseline.slice(-8)}`);
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByText('does not exist')).toHaveCount(0);
  // The answers side by side, each column reading as its own answer (one interleaved paragraph was
  // unreadable); what only A said is struck through, what only B said is marked inserted.
  const answers = page.getByTestId('answer-diff');
  const stored: Record<'a' | 'b', string> = { a: '', b: '' };
  for (const [side, id] of [['a', weak], ['b', baseline]] as const) {
    const body = (await (await page.request.get(`/api/runs/${id}/export`)).json()) as { run?: { finalAnswer?: string }; finalAnswer?: string };
    const answer = body.run?.finalAnswer ?? body.finalAnswer;
    expect(answer, 'the export names the final answer').toBeTruthy();
    stored[side] = answer!;
    await expect(answers.getByTestId(`answer-${side}`)).toHaveText(answer!, { useInnerText: false });
  }
  // Related answers are marked word by word; answers sharing too few words are shown whole and said to
  // be entirely different (issue 43: "I", "(" and "of" matched across two unrelated answers).
  if (answerColumns(stored.a, stored.b).related) await expect(answers.locator('del.diff-a, ins.diff-b').first()).toBeVisible();
  else {
    await expect(answers.getByTestId('answers-unrelated')).toBeVisible();
    await expect(answers.locator('del.diff-a, ins.diff-b')).toHaveCount(0);
  }

  // Now that a run under no weakness exists, the replay button goes straight to the comparison.
  await page.goto(`/runs/${weak}`);
  await page.getByTestId('compare-no-weakness').click();
  await page.waitForURL(new RegExp(`/compare\\?a=${weak}&b=${baseline}$`));

  // "Compare with…" keeps A and lets one search for B.
  await page.goto(`/compare?a=${weak}`);
  await page.getByLabel('Find runs whose question, answer or tool calls contain').fill('S008-no-such-text');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`a=${weak}`));
  await expect(page.getByText('No runs match this search.')).toBeVisible();
  await expect(page.getByTestId('same-case')).toContainText('S008');
});
