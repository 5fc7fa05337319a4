/**
 * The Tools page (issue 24 §6, issue 27 item 6), tool results of every kind in replay (issue 24 §4), and
 * the new session a tool server gave a run after ending its old one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { resolveConfig } from '../../lib/harness/config';
import type { ModelClient } from '../../lib/harness/model/client';
import { scriptedModel } from '../../lib/harness/testing/scripted-model';
import type { RunResult } from '../../lib/harness/types';
import type { Dataset } from '../../lib/stockroom/dataset/types';
import { createExecutor } from '../../lib/mcp/client/create-executor';
import { SESSION_IDLE_MS, startStockroomHttpServer } from '../../lib/mcp/server/http-server';
import { strangerCommand } from '../../lib/mcp/testing/stranger-process';
import { createStockroomAgent } from '../../lib/stockroom/agent';
import { loadDataset } from '../../lib/stockroom/dataset/load-dataset';
import { toRunFile } from '../../lib/transfer/run-file';
import { saveArtifact } from '../support/helpers';
import { E2E_USERS, storageStateOf } from '../support/users';

test('lists no server live on load; an operator refreshes; one row per tool, schemas folded, a filter box', async ({ page }) => {
  await page.goto('/tools');
  await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible();
  // Loading the page spawns nothing: until a refresh, no server has been listed.
  await expect(page.getByTestId('tool-server-everything')).toContainText('never refreshed');
  await page.getByRole('button', { name: 'Refresh every server' }).click();
  await expect(page.getByTestId('tool-everything-echo')).toBeVisible({ timeout: 60_000 });

  const echo = page.getByTestId('tool-everything-echo');
  await expect(echo).toContainText('Echoes back the input string');
  await expect(echo).toContainText('read-only');
  // The schema is a folded tree, not raw JSON in a narrow cell.
  await expect(echo.getByTestId('json-tree')).toBeHidden();
  await echo.getByText('input schema').click();
  await expect(echo.getByTestId('json-tree').first()).toContainText('message');

  const restock = page.getByTestId('tool-stockroom-create_restock_request');
  await expect(restock).toContainText('writes');
  await expect(page.getByTestId('tool-stockroom-reset_session_state')).toHaveCount(0);

  // The filter narrows the rows.
  const all = await page.locator('tbody tr').count();
  await page.getByLabel('Filter tools').fill('restock');
  await expect(page.locator('tbody tr')).not.toHaveCount(all);
  await expect(restock).toBeVisible();
  await expect(echo).toBeHidden();
  await page.getByLabel('Filter tools').fill('');

  // A header value never reaches the page, only its name; the dashboard's own address is not hardcoded.
  const dashboard = page.getByTestId('tool-server-dashboard');
  await expect(dashboard).toContainText('headers: Authorization');
  await expect(dashboard).toContainText('${DASHBOARD_URL}/api/mcp');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThan(8_877);
  await saveArtifact(page, 'tools');
});

test.describe('as a viewer', () => {
  test.use({ storageState: storageStateOf('viewer') });
  test('reads the cached listing but cannot refresh', async ({ page }) => {
    await page.goto('/tools');
    await expect(page.getByText('Refreshing needs the operator role.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh every server' })).toHaveCount(0);
  });
});

test("replay shows a tool's image and embedded resource, what the model was given instead, and the retry before it", async ({ page }) => {
  // A run against a third-party server returning every content kind, made here and imported.
  const dataset = loadDataset(path.resolve('data'));
  const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand() });
  const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
  // Its first model call is throttled once and retried (as a live client reports it), so replay shows the retry too.
  const scripted = scriptedModel([{ calls: [['everything_kinds', {}]] }, { text: 'Shelf B-12 is shown.' }]);
  let throttled = false;
  const model: ModelClient = {
    modelId: scripted.modelId,
    async converse(req) {
      if (!throttled) {
        throttled = true;
        req.onRetry?.({ attempt: 1, reason: 'throttled', detail: '429 slow down', delayMs: 50 });
        await new Promise((resolve) => setTimeout(resolve, 50));
        req.onRetryWaited?.(1);
      }
      return scripted.converse(req);
    },
  };
  const run = await agent.run('show me shelf B-12', null, { model });
  await agent.close();
  const id = importRun(run, dataset, 'mcp-stdio');

  // The tool ran in harness step 1; its result shows from the transition that executed it.
  await page.goto(`/runs/${id}?step=1`);
  const entry = page.getByTestId('tool-entry').filter({ hasText: 'everything_kinds' });
  await expect(entry.getByTestId('tool-result')).toContainText('[image image/png, 30 KB]');
  const media = entry.getByTestId('tool-media');
  await expect(media.getByRole('img', { name: /Image 1 returned by everything_kinds \(image\/png/ })).toBeVisible();
  await expect(media).toContainText('file:///reports/b12.pdf');
  await expect(media.getByTestId('json-tree')).toContainText('B-12');
  // The throttled attempt shows in the step it happened in: attempt, reason, planned wait and the recorded wait.
  const retry = page.getByTestId('retry-entry');
  await expect(retry).toHaveCount(1);
  await expect(retry).toContainText('Attempt 1 failed');
  await expect(retry).toContainText('throttled');
  await expect(retry).toContainText('retrying in 50 ms');
  await expect(retry).toContainText(/waited [\d.]+ m?s, from [\d.]+ m?s into the run \(\d{4}-\d{2}-\d{2}T/);
  await saveArtifact(page, 'replay-media');
});

test("replay shows a stranger's broken outputSchema and the progress its tool reported (issue 40)", async ({ page }) => {
  // A run against the third-party stranger: a result that breaks its outputSchema, then a slow tool reporting progress.
  const dataset = loadDataset(path.resolve('data'));
  const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand() });
  const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
  const model = scriptedModel([{ calls: [['weather', { answer: 'wrong' }]] }, { calls: [['slow', { steps: 3 }]] }, { text: 'No weather today.' }]);
  const run = await agent.run('what is the weather on the dock?', null, { model });
  await agent.close();
  const id = importRun(run, dataset, 'mcp-stdio');

  await page.goto(`/runs/${id}?step=1`);
  const weather = page.getByTestId('tool-entry').filter({ hasText: 'weather' });
  await expect(weather).toContainText('error: output_schema_violation');
  await expect(weather.getByTestId('schema-violation')).toContainText(/weather: its structured content does not match its outputSchema: .*temperature/);

  await page.goto(`/runs/${id}?step=2`);
  const slow = page.getByTestId('tool-entry').filter({ hasText: 'slow' });
  const progress = slow.getByTestId('tool-progress');
  await expect(progress).toContainText('Progress reported while it ran (3 kept; the last is 3 of 3)');
  await progress.locator('summary').click();
  await expect(progress.locator('li')).toHaveText(['1 / 3 — step 1', '2 / 3 — step 2', '3 / 3 — step 3']);
});

/** Imports a run made here into the e2e database as the admin (a run file through the CLI); returns its id. */
function importRun(run: RunResult, dataset: Dataset, transport: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-run-')), 'run.json');
  const meta = { datasetName: dataset.name, datasetHash: 'e2e', transport, category: null, setting: 'none', source: 'harness' as const, config: { mode: 'mock' } };
  writeFileSync(file, JSON.stringify(toRunFile({ id: run.runId, meta, run }, new Date())));
  const out = execFileSync(path.resolve('node_modules/.bin/tsx'), ['--conditions=react-server', 'cli/stockroom.ts', 'import', file, '--tenant', 'kittiwake', '--as', E2E_USERS.admin.email], {
    env: { ...process.env, DATABASE_URL: `file:${process.env.E2E_DB_FILE}`, CHECKPOINT_DISABLE: '1' },
    encoding: 'utf8',
  });
  const id = /^\s+([0-9a-f]{8,})\s*$/m.exec(out)?.[1];
  expect(id).toBeTruthy();
  return id!;
}

test('replay shows the new session a tool server gave the run after reaping the old one, at the call and in the event list', async ({ page }) => {
  // Our HTTP server on a socket reaps the run's session while the model is slow (its session table's clock driven past the idle limit).
  const dataset = loadDataset(path.resolve('data'));
  const running = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, log: () => {} });
  const executor = await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: running.url, mcpServerId: 'inventory' });
  const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-http' }), executor });
  const scripted = scriptedModel([{ calls: [['get_stock_level', { sku: 'SKU-2001' }]] }, { calls: [['get_stock_level', { sku: 'SKU-2002' }]] }, { text: 'Both counted.' }]);
  let turn = 0;
  const model: ModelClient = {
    modelId: scripted.modelId,
    async converse(req) {
      turn += 1;
      if (turn === 2) running.reapIdleSessions(Date.now() + SESSION_IDLE_MS + 1);
      return scripted.converse(req);
    },
  };
  const run = await agent.run('count two shelves', null, { model });
  await agent.close();
  await running.close();
  expect(run.terminationReason).toBe('COMPLETED');
  const id = importRun(run, dataset, 'mcp-http');

  await page.goto(`/runs/${id}?step=2`);
  const entry = page.getByTestId('tool-session-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('New session with tool server inventory');
  await expect(entry).toContainText('the server had ended the old one');
  await expect(entry).toContainText('for get_stock_level');
  await expect(entry).toContainText('answered HTTP 404 for the session when tools/call get_stock_level was sent');
  // The call it was opened for is answered below it.
  await expect(page.getByTestId('tool-entry').filter({ hasText: 'get_stock_level' })).toContainText('ok');
  const events = page.getByTestId('event-list');
  await expect(events).toContainText('NEW SESSION');
  await expect(events).toContainText('with tool server inventory for get_stock_level at step 2');
  await saveArtifact(page, 'replay-tool-session');
});
