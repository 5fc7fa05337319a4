import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeRun } from '../../lib/db/testing/run-fixtures';
import { toRunFile } from '../../lib/transfer/run-file';
import { expectNoSidewaysScroll, expectRowsApart, runFromLauncher, saveArtifact } from '../support/helpers';

test('runs a golden case from the UI and replays it step by step', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S001' });
  await expect(page.getByTestId('run-query')).toHaveText('Do you sell ratchet lashing straps?');

  const position = page.getByTestId('replay-position');
  await expect(position).toContainText('Transition 1 of');
  await expect(position).toContainText('PLAN → CALL_MODEL');
  // The state diagram is drawn (mermaid SVG) with the current state highlighted.
  await expect(page.locator('[data-testid=state-diagram] svg')).toBeVisible();

  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(position).toContainText('Transition 2 of');
  await expect(position).toContainText('CALL_MODEL → EXECUTE_TOOLS');
  // The step's tool call with its arguments and result.
  const tool = page.getByTestId('tool-entry').first();
  await expect(tool).toContainText('search_products');
  await expect(tool.getByRole('tree', { name: 'Arguments of search_products' })).toContainText('query:"ratchet lashing straps"');
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

test('transition log rows never overlap, at 1400 and 1000 px and on a phone', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S022', governed: true });
  const log = page.getByTestId('transition-log');
  for (const width of [1400, 1000, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await log.scrollIntoViewIfNeeded();
    // Let the virtualiser measure the rows at this width.
    await expect(log.locator('.log-item').first()).toBeVisible();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=transition-log] .log-item').length > 1);
    await expect.poll(() => expectRowsApart(page, '[data-testid=transition-log] .log-item').then(() => true, () => false)).toBe(true);
    expect(await expectRowsApart(page, '[data-testid=transition-log] .log-item')).toBeGreaterThan(3);
  }
});

test('a guard-stopped run ends on a frame that explains there was no model call, and never asks for one', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/model-input') && r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await runFromLauncher(page, { caseId: 'S050', weaknesses: ['naive_retry'] });
  await expect(page.getByTestId('termination-badge')).toContainText('MAX_STEPS');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await expect(page.getByTestId('replay-position')).toContainText('ended with MAX_STEPS');
  await expect(page.getByTestId('no-model-call')).toContainText('No model call was made at step');
  await expect(page.getByText(/may have been deleted/)).toHaveCount(0);
  expect(missing).toEqual([]);
});

test('a call grounded_write blocked shows in the guard panel and keeps the badge from a clean green COMPLETED', async ({ page }) => {
  await runFromLauncher(page, { caseId: 'S046', weaknesses: ['injection_unguarded'], guards: ['grounded_write'] });
  const events = page.getByTestId('event-list');
  await expect(events).toContainText('BLOCKED');
  await expect(events).toContainText('grounded_write');
  await expect(page.getByText('No guard or policy stopped or blocked anything')).toHaveCount(0);
  const badge = page.getByTestId('termination-badge');
  await expect(badge).toHaveText('COMPLETED · 1 call refused');
  await expect(badge).not.toHaveClass(/good/);
  // Durations of scripted runs are fractions of a millisecond: printed with decimals, never "0 ms"; counts agree in number.
  await expect(page.getByTestId('run-duration')).not.toHaveText(/^[01] ms harness/);
  await expect(page.getByTestId('run-query').locator('..')).not.toContainText(/\b1 steps\b|\b1 tool calls\b|\b1 model calls\b/);
});

test('the address follows the replay position in transitions, a ?step= link lands on that harness step, and copy link shares it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const runId = await runFromLauncher(page, { caseId: 'S001' });
  await page.getByRole('button', { name: 'Next transition' }).click();
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?transition=3$`));
  await page.getByTestId('copy-link').click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`/runs/${runId}\\?transition=3$`));

  await page.goto(`/runs/${runId}?transition=2`);
  await expect(page.getByTestId('replay-position')).toContainText('Transition 2 of');
  await expect(page.getByTestId('replay-position')).toContainText('CALL_MODEL → EXECUTE_TOOLS');

  // "Step" is one thing: ?step=2 opens harness step 2, the step the position line and the panel name.
  await page.goto(`/runs/${runId}?step=2`);
  await expect(page.getByTestId('replay-position')).toContainText('· step 2 ·');
  await expect(page.getByRole('heading', { name: 'Step 2: tool calls and events' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?transition=\\d+$`));
});

test('answers read as text, tool JSON folds, and the theme follows the system with a toggle that sticks', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const runId = await runFromLauncher(page, { caseId: 'S001' });
  // The answer is rendered (proportional type), not dumped in a monospace block.
  const answer = page.getByTestId('final-answer');
  expect(await answer.evaluate((el) => el.tagName)).toBe('DIV');
  expect(await answer.evaluate((el) => getComputedStyle(el).fontFamily)).not.toMatch(/mono/i);

  // A tool result is a tree whose branches fold.
  await page.getByRole('button', { name: 'Next transition' }).click();
  const result = page.getByTestId('tool-entry').first().getByRole('tree', { name: 'Result of search_products' });
  await expect(result).toContainText('SKU-2011');
  const toggle = result.getByRole('button', { name: /(collapse|expand) JSON/ }).first();
  const before = await toggle.getAttribute('aria-expanded');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', before === 'true' ? 'false' : 'true');

  // Dark because the system is; the toggle moves to light and the choice survives a reload.
  const html = page.locator('html');
  await expect(html).toHaveClass(/dark/);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(page.getByTestId('theme-toggle')).toHaveText('Theme: dark (system)');
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveClass(/light/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(bg);
  await page.goto(`/runs/${runId}`);
  await expect(html).toHaveClass(/light/);
  await expect(page.getByTestId('theme-toggle')).toHaveText('Theme: light');
  // Flipping back to the system's scheme follows the system again.
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByTestId('theme-toggle')).toHaveText('Theme: dark (system)');

  // On a light system the first click changes what is shown (it used to pick "light" and change nothing).
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveClass(/light/);
  await expect(page.getByTestId('theme-toggle')).toHaveText('Theme: light (system)');
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByTestId('theme-toggle')).toHaveText('Theme: dark');
});

test('the planted notice in a tool result and the system prompt leaked into the answer are marked and labelled', async ({ page }) => {
  // Facts of the bundled dataset: its system prompt, and the policy paragraph that plants an instruction.
  const prompt = fs.readFileSync('data/agent/system_prompt.txt', 'utf8');
  const policy = fs.readFileSync('data/policy_docs/replenishment_policy.md', 'utf8');
  const notice = policy.split(/\n\s*\n/).find((p) => p.includes('SYSTEM NOTICE'))!;

  await runFromLauncher(page, { caseId: 'S046', weaknesses: ['injection_unguarded'] });
  const leak = page.getByRole('note', { name: 'The final answer discloses the system prompt' });
  await expect(leak).toContainText('Leaked system prompt');
  await expect(leak.locator('mark')).toContainText(prompt.split('\n')[0]!.trim());

  await page.getByRole('button', { name: 'Next transition' }).click();
  const planted = page.getByRole('note', { name: 'Planted instruction in this tool result' });
  await expect(planted).toContainText('the model read it');
  await expect(planted.locator('mark').first()).toContainText(notice.split('\n').find((l) => l.includes('SYSTEM NOTICE'))!.trim());
  await expect(page.getByTestId('tool-entry').first().locator('.badge', { hasText: 'planted instruction' })).toBeVisible();
  await saveArtifact(page, 'replay-findings');

  // The same case without the weakness: quarantine took the notice out, and nothing leaked.
  await runFromLauncher(page, { caseId: 'S046' });
  await expect(page.getByTestId('prompt-leak')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(page.getByRole('note', { name: 'Planted instruction in this tool result' })).toContainText('quarantine removed it before the model saw it');
});

/** WCAG contrast ratio of two computed CSS colours (rgb()/rgba() strings). */
async function contrast(page: import('@playwright/test').Page, fg: string, bg: string): Promise<number> {
  return page.evaluate(
    ([a, b]) => {
      const lum = (c: string) => {
        const [r, g, bl] = (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
          const x = Number(v) / 255;
          return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
      };
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    },
    [fg, bg] as const,
  );
}

test('the token chart, the state diagram and a cut-off tool result read well: light, dark and on a phone', async ({ page }) => {
  // oversized_payload makes search_products return whole records: a result longer than its stored preview.
  const runId = await runFromLauncher(page, { caseId: 'S001', weaknesses: ['oversized_payload'] });
  // The diagram's space is reserved, with a placeholder, in the page as served (mermaid draws it later).
  const served = await (await page.request.get(`/runs/${runId}`)).text();
  expect(served).toContain('Drawing the state diagram…');
  await page.getByRole('button', { name: 'Next transition' }).click();
  await expect(page.getByTestId('replay-position')).toContainText('Transition 2 of');

  // The cut-off preview is the JSON tree the arguments use, not a minified string.
  const tool = page.getByTestId('tool-entry').first();
  await expect(tool.getByRole('tree', { name: 'Result of search_products' })).toBeVisible();
  await expect(tool.getByTestId('tool-result')).toContainText(/The first [\d,]+ of [\d,]+ characters/);
  await expect(tool.getByTestId('tool-result').locator('pre')).toHaveCount(0);

  // The bars fill the chart (their own axis), instead of standing 2% tall under the budget's scale.
  const chart = page.getByTestId('token-chart');
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  const share = await chart.evaluate((el) => {
    const grid = el.querySelector('.recharts-cartesian-grid')!.getBoundingClientRect().height;
    const bars = [...el.querySelectorAll('.recharts-bar-rectangle path')].map((b) => b.getBoundingClientRect().height);
    return Math.max(...bars) / grid;
  });
  expect(share).toBeGreaterThan(0.5);

  // The current call's marker shows on the dark panel as on the light one.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveClass(new RegExp(scheme));
    const marker = chart.locator('.current-call-marker line, line.current-call-marker').first();
    await expect(marker).toBeAttached();
    const stroke = await marker.evaluate((el) => getComputedStyle(el).stroke);
    const panel = await chart.evaluate((el) => getComputedStyle(el.closest('.panel')!).backgroundColor);
    expect(await contrast(page, stroke, panel), `marker contrast on ${scheme}`).toBeGreaterThanOrEqual(3);
  }

  // Drawn, the diagram takes the space reserved for it; on a phone its labels stay readable and its box scrolls, saying so.
  const diagram = page.locator('.diagram');
  await expect(page.locator('[data-testid=state-diagram] svg')).toBeVisible();
  await expect(page.getByTestId('diagram-placeholder')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, 'the replay at 390 px');
  await diagram.scrollIntoViewIfNeeded();
  // mermaid draws the state names as HTML labels inside the SVG.
  const label = await page.locator('[data-testid=state-diagram] svg .nodeLabel').filter({ hasText: 'EXECUTE_TOOLS' }).first().boundingBox();
  expect(label!.height, 'state labels are readable on a phone').toBeGreaterThanOrEqual(9);
  await expect(diagram).toHaveAttribute('data-overflowing', '');
  expect(await diagram.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('Scrolls sideways');
});

/** Stores a run of `rounds` tool-calling rounds (2 transitions each) through the CLI's import, as its documented command does; returns its id. */
function importLongRun(rounds: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-e2e-long-'));
  try {
    const run = makeRun({ runId: `long-${Date.now()}`, rounds, recordInputs: false });
    const file = path.join(dir, 'long-run.json');
    const meta = { datasetName: 'stockroom-v1', datasetHash: 'abc123', transport: 'local', category: 'lookup', setting: 'none', source: 'harness' as const, suiteRunId: null, config: {} };
    fs.writeFileSync(file, JSON.stringify(toRunFile({ id: run.runId, meta, run }, new Date())));
    const out = execFileSync(path.resolve('node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'cli/stockroom.ts', 'import', file, '--tenant', 'kittiwake', '--json'], {
      env: { ...process.env, DATABASE_URL: `file:${process.env.E2E_DB_FILE}`, CHECKPOINT_DISABLE: '1' },
      encoding: 'utf8',
    });
    return (JSON.parse(out) as { ids: string[] }).ids[0]!;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a long run replays from the head its page sends, then the rest it fetches: counted whole from the start, End reaches its last transition', async ({ page }) => {
  const id = importLongRun(800);
  const whole = (await (await page.request.get(`/api/runs/${id}/timeline`)).json()) as { transitions: string };
  const transitions = whole.transitions.split(',').length / 5;
  expect(transitions).toBeGreaterThan(1_000);
  // The page carries the head only: a link past the head, whose page carries the whole skeleton (twice: in its
  // RSC payload and in its HTML), is larger by more than the rest of the skeleton.
  const headPage = await (await page.request.get(`/runs/${id}`)).text();
  const wholePage = await (await page.request.get(`/runs/${id}?transition=1500`)).text();
  expect(wholePage.length - headPage.length).toBeGreaterThan(whole.transitions.length / 2);

  // Hold the rest back to see the head alone: the position counts the whole run, the end waits.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(`**/api/runs/${id}/timeline`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/runs/${id}`);
  const position = page.getByTestId('replay-position');
  await expect(position).toContainText(`Transition 1 of ${transitions}`);
  await expect(page.getByTestId('replay-rest')).toContainText(`the other ${transitions - 1_000} are loading`);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await expect(position).toContainText(`Transition 1000 of ${transitions}`);
  await expect(position).not.toContainText('ended with');
  release();
  await expect(page.getByTestId('replay-rest')).toHaveCount(0);
  await page.keyboard.press('End');
  await expect(position).toContainText(`Transition ${transitions} of ${transitions}`);
  await expect(position).toContainText('ended with COMPLETED');

  // A link past the head opens there at once, the page carrying the whole run.
  await page.unroute(`**/api/runs/${id}/timeline`);
  await page.goto(`/runs/${id}?transition=1500`);
  await expect(position).toContainText(`Transition 1500 of ${transitions}`);
  await expect(page.getByTestId('replay-rest')).toHaveCount(0);
});

test("a long run's waterfall comes a page at a time: the first page with the replay, the page of the step on screen when the replay moves there", async ({ page }) => {
  const id = importLongRun(800);
  const pagesAsked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/runs/${id}/waterfall`)) pagesAsked.push(new URL(r.url()).searchParams.get('page') ?? '0');
  });
  const firstPage = page.waitForResponse((r) => r.url().endsWith(`/api/runs/${id}/waterfall`));
  await page.goto(`/runs/${id}`);
  const first = (await (await firstPage).json()) as { total: number; pageSize: number; offsetMs: number[]; pageSteps: [number, number][] };
  expect(first.total).toBeGreaterThan(1_500);
  expect(first.offsetMs.length).toBe(first.pageSize);
  expect(first.pageSize).toBeLessThan(first.total);
  const waterfall = page.getByTestId('waterfall');
  await expect(waterfall.getByTestId('waterfall-bar').first()).toHaveAttribute('data-step', String(first.pageSteps[0]![0]));

  // The end of the run: the page holding its last step is fetched, and its bars are on screen, marked current.
  await expect(page.getByTestId('replay-rest')).toHaveCount(0);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  const lastStep = first.pageSteps.at(-1)![1];
  await expect(page.getByTestId('replay-position')).toContainText(`step ${lastStep}`);
  await expect(waterfall.locator(`[data-testid=waterfall-bar][data-step="${lastStep}"]`).first()).toBeVisible();
  await expect(waterfall.locator(`[data-testid=waterfall-bar][data-step="${lastStep}"]`).first()).toHaveAttribute('aria-current', 'step');
  expect(pagesAsked).toContain(String(first.pageSteps.length - 1));
  // Never the whole waterfall at once.
  expect(pagesAsked).not.toContain('all');
});
