import { expect, test } from '@playwright/test';
import { runFromLauncher, saveArtifact } from '../support/helpers';

test('runs a golden case from the UI and replays it step by step', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S001' });
  await expect(page.getByTestId('run-query')).toHaveText('Do you sell ratchet lashing straps?');

  const position = page.getByTestId('replay-position');
  await expect(position).toContainText('Transition 1 of');
  await expect(position).toContainText('PLAN → CALL_MODEL');
  // The state diagram is drawn (mermaid SVG) with the current state highlighted.
  await expect(page.locator('[data-testid=state-diagram] svg')).toBeVisible();

  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(position).toContainText('Transition 2 of');
  await expect(position).toContainText('CALL_MODEL → EXECUTE_TOOLS');
  // The step's tool call with its arguments and result.
  const tool = page.getByTestId('tool-entry').first();
  await expect(tool).toContainText('search_products');
  await expect(tool).toContainText('"query": "ratchet lashing straps"');
  await expect(tool.getByTestId('tool-result')).toContainText('SKU-2011');
  // What the model saw at this step.
  await expect(page.getByTestId('model-messages')).toContainText('Do you sell ratchet lashing straps?');

  // Arrow keys step through the log too.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await expect(position).toContainText('Transition 3 of');
  await page.keyboard.press('ArrowLeft');
  await expect(position).toContainText('Transition 2 of');
  await page.keyboard.press('End');
  await expect(position).toContainText('→ DONE');
  await expect(page.getByTestId('token-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await saveArtifact(page, 'replay');
});
