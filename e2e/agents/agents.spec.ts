/**
 * A run of several agents in the browser (issue 31): the planner / inventory-checker trace,
 * sent to the OTLP receiver as a producer would, replays as a tree — the span tree beside the
 * waterfall, the agent graph, the state machine per agent — at desk and phone widths, light and dark,
 * with no serious axe violation; clicking a node moves the replay there; the runs list filters by
 * agent and counts them; compare aligns two such runs agent by agent.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { otlpDocument, plannerTrace } from '../../lib/otel/testing/agent-traces';
import { expectNoSidewaysScroll, saveArtifact } from '../support/helpers';
import { E2E_OTLP_TOKEN } from '../support/users';

const CHECKER = 'planner › inventory-checker';

/** The ids of the imported runs that have an agent named inventory-checker (the runs list's agent filter). */
async function checkerRuns(page: Page): Promise<string[]> {
  await page.goto('/runs?source=imported&agent=inventory-checker&size=100');
  const links = page.getByTestId('runs-table').locator('tbody tr a[data-row-link]');
  return (await links.evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''))).map((h) => h.split('/').pop()!);
}

/** Sends the trace (a fresh trace id per seed) and returns its run's id, found through the agent filter. */
async function importPlannerTrace(page: Page, seed: string): Promise<string> {
  const before = new Set(await checkerRuns(page));
  const res = await page.request.post('/api/otlp/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_OTLP_TOKEN}` },
    data: otlpDocument([{ seed, spans: plannerTrace() }]),
  });
  expect(res.status()).toBe(200);
  // Every copy of the trace starts at the same instant: the new run is the one not listed before.
  let id: string | undefined;
  await expect.poll(async () => (id = (await checkerRuns(page)).find((x) => !before.has(x)))).toBeTruthy();
  const row = page.getByTestId('runs-table').locator('tbody tr').filter({ has: page.locator(`a[href="/runs/${id}"]`) });
  await expect(row.getByTestId('agent-count')).toHaveText('2');
  return id!;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('a multi-agent trace replays as a tree and an agent graph, at 1400 and 390 px, light and dark, with no serious axe violation', async ({ page }) => {
  test.setTimeout(300_000);
  const id = await importPlannerTrace(page, `agents-e2e-${Date.now()}`);
  // A harness-only filter keeps this run out: its agents are not `stockroom`.
  await page.goto('/runs?agent=stockroom&source=imported');
  await expect(page.locator(`a[href="/runs/${id}"]`)).toHaveCount(0);

  const found: string[] = [];
  for (const width of [1400, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/runs/${id}`);
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /light/);

      const tree = page.getByRole('tree', { name: /Span tree/ });
      await expect(tree).toBeVisible();
      // Two agents, the sub-agent one level under the planner, each with its rollup.
      const planner = tree.locator('[data-testid=tree-agent][data-agent="planner"]');
      const checker = tree.locator(`[data-testid=tree-agent][data-agent="${CHECKER}"]`);
      await expect(planner).toHaveAttribute('aria-level', '1');
      await expect(checker).toHaveAttribute('aria-level', '2');
      await expect(planner).toHaveAttribute('aria-expanded', 'true');
      await expect(checker.getByTestId('agent-rollup')).toContainText('2 model calls');
      await expect(checker.getByTestId('agent-rollup')).toContainText('1 tool call');
      await expect(planner.getByTestId('agent-rollup')).toContainText('DONE');
      // Each call under the agent that made it: the sub-agent's tool one level below it, the planner's own below the planner.
      await expect(tree.locator('[data-testid=tree-bar]', { hasText: 'get_stock_level' })).toHaveAttribute('aria-level', '3');
      await expect(tree.locator('[data-testid=tree-bar]', { hasText: 'create_restock_request' })).toHaveAttribute('aria-level', '2');

      // The agent graph: the planner called the inventory-checker once.
      const graph = page.getByTestId('agent-graph');
      await expect(graph.locator('[data-testid=graph-node]')).toHaveCount(2);
      await expect(graph.locator(`[data-testid=graph-edge][data-from="planner"][data-to="${CHECKER}"]`)).toHaveAttribute('data-count', '1');
      await expect(graph.locator(`[data-testid=graph-node][data-agent="${CHECKER}"]`)).toHaveAttribute('aria-label', /called 1×/);
      await expect(page.locator('[data-testid=state-diagram] svg')).toBeVisible();

      if (width === 390) await expectNoSidewaysScroll(page, `the replay of a multi-agent run at ${width} px (${scheme})`);
      await saveArtifact(page, `agents-replay-${width}-${scheme}`);
      for (const v of await seriousViolations(page)) found.push(`${width} px ${scheme}: ${v}`);
    }
  }
  expect(found).toEqual([]);
});

test('clicking a node of the tree or the graph moves the replay there, and the keyboard works the tree', async ({ page }) => {
  const id = await importPlannerTrace(page, `agents-click-${Date.now()}`);
  await page.goto(`/runs/${id}`);
  const position = page.getByTestId('replay-position');
  await expect(page.getByTestId('replay-agent')).toHaveText('planner');

  // A bar of the sub-agent: the replay moves to its step, the sub-agent's, and shows its tool call.
  const tree = page.getByRole('tree', { name: /Span tree/ });
  await tree.locator('[data-testid=tree-bar]', { hasText: 'get_stock_level' }).click();
  await expect(page.getByTestId('replay-agent')).toHaveText(CHECKER);
  await expect(page.getByTestId('tool-entry').first()).toContainText('get_stock_level');
  await expect(page.getByTestId('state-agent-name')).toContainText(CHECKER);

  // The graph's planner node moves it back to the planner's first step.
  await page.locator('[data-testid=graph-node][data-agent="planner"]').click();
  await expect(page.getByTestId('replay-agent')).toHaveText('planner');
  await expect(position).toContainText('Transition 1 of');

  // Keyboard: one tab stop; Left closes the planner, Right opens it again, Down then Enter moves the replay.
  const plannerRow = tree.locator('[data-testid=tree-agent][data-agent="planner"]');
  await plannerRow.focus();
  await expect(plannerRow).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(plannerRow).toHaveAttribute('aria-expanded', 'false');
  await expect(tree.locator('[data-testid=tree-bar]')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(plannerRow).toHaveAttribute('aria-expanded', 'true');
  // The tree's arrows stay in the tree: the replay did not move.
  await expect(position).toContainText('Transition 1 of');
  // Down through the planner's rows until the sub-agent's row has focus.
  const focused = page.locator('[data-testid=tree-agent]:focus, [data-testid=tree-bar]:focus');
  for (let i = 0; i < 6 && (await focused.getAttribute('data-agent').catch(() => null)) !== CHECKER; i += 1) {
    await page.keyboard.press('ArrowDown');
    await expect(focused).toHaveCount(1);
  }
  await expect(focused).toHaveAttribute('data-agent', CHECKER);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('replay-agent')).toHaveText(CHECKER);
  await saveArtifact(page, 'agents-replay-clicked');
});

test('compare aligns two multi-agent runs agent by agent', async ({ page }) => {
  const a = await importPlannerTrace(page, `agents-cmp-a-${Date.now()}`);
  const b = await importPlannerTrace(page, `agents-cmp-b-${Date.now()}`);
  expect(a).not.toBe(b);
  await page.goto(`/compare?a=${a}&b=${b}`);
  await expect(page.getByTestId('compare-by-agent-note')).toBeVisible();
  const sections = page.getByTestId('agent-compare');
  await expect(sections).toHaveCount(2);
  const planner = page.locator('[data-testid=agent-compare][data-agent="planner"]');
  const checker = page.locator(`[data-testid=agent-compare][data-agent="${CHECKER}"]`);
  for (const agent of [planner, checker]) {
    await expect(agent).toHaveAttribute('data-present', 'both');
    await expect(agent).toContainText('Same steps.');
  }
  await expect(checker.getByTestId('compare-table')).toContainText('get_stock_level');
  await expect(planner.getByTestId('compare-table')).toContainText('create_restock_request');
  await saveArtifact(page, 'agents-compare');
});
