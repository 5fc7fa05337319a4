/**
 * The run form's tool-server picker (issue 11 §1): a single run may use a server configured in
 * config/mcp-servers.json, chosen by id; an unknown id, or a server asked for where it would be
 * ignored (suites, matrices, governed runs), is refused on the field.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('choosing a configured tool server for a run', () => {
  it('runs against server-everything and stores the server it used', async () => {
    const { runOneAction } = await import('./run-one');
    const { getRunSummaryOrThrow } = await import('../db/runs-read');
    env.as('operator');
    const res = await runOneAction({ datasetId: 'bundled', query: 'Where is SKU-2001 stored?', toolServer: 'everything' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const run = await getRunSummaryOrThrow(res.data.runId);
    expect(run.config).toMatchObject({ transport: 'mcp-stdio', toolServer: 'everything' });
  }, 60_000);

  it('refuses an id the deployment does not list, on the field', async () => {
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    const res = await runOneAction({ datasetId: 'bundled', caseId: 'S001', toolServer: 'nope' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.fieldErrors?.toolServer?.[0]).toContain("Unknown tool server 'nope'");
  });

  it('refuses a tool server for a suite instead of ignoring it', async () => {
    const { startSuiteAction } = await import('./start-suite');
    env.as('operator');
    const res = await startSuiteAction({ datasetId: 'bundled', toolServer: 'everything' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.fieldErrors?.toolServer?.[0]).toMatch(/single ungoverned run only/);
  });

  it('never takes a command from the browser: the field accepts an id only', async () => {
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    const res = await runOneAction({ datasetId: 'bundled', caseId: 'S001', toolServer: 'node -e "process.exit(1)"' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.fieldErrors?.toolServer).toBeTruthy();
  });
});
