import { expect, test } from '@playwright/test';

test("lists each configured tool server's tools with schemas and annotations", async ({ page }) => {
  await page.goto('/tools');
  await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible();

  // The third-party reference server, spawned from the deployment's file.
  const echo = page.getByTestId('tool-everything-echo');
  await expect(echo).toContainText('Echoes back the input string');
  await expect(echo).toContainText('"readOnlyHint": true');
  await expect(echo).toContainText('"message"');

  // Our own stand-alone server: the restock is the one tool that is not read-only.
  const restock = page.getByTestId('tool-stockroom-create_restock_request');
  await expect(restock).toContainText('"readOnlyHint": false');
  await expect(restock).toContainText('"request_id"');
  await expect(page.getByTestId('tool-stockroom-get_stock_level')).toContainText('"readOnlyHint": true');
  // The private reset is not offered to a server listed for outside use.
  await expect(page.getByTestId('tool-stockroom-reset_session_state')).toHaveCount(0);

  // A header value never reaches the page, only its name.
  await expect(page.getByTestId('tool-server-dashboard')).toContainText('headers: Authorization');
});
