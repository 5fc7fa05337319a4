/**
 * The run form's tool-server picker (issue 11 §1): a single run may use a server configured in
 * config/mcp-servers.json, chosen by id, and so may a suite or a matrix (each setting's flags
 * confirmed with the server and stored with its runs); an unknown id, or a server asked for where it
 * would be ignored (governed runs), is refused on the field.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, suiteFinished as finished, type ActionEnv } from './testing/action-env';

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
    const { getRunSummaryOrThrow } = await import('../db/runs/runs-read');
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

  it('runs a suite against a configured server, storing the flags that server confirmed with every run', async () => {
    const { startSuiteAction } = await import('./start-suite');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    // config/mcp-servers.json's stockroom server lets each session choose its flags (stdio handshake).
    const res = await startSuiteAction({ datasetId: 'bundled', weaknesses: ['oversized_payload'], toolServer: 'stockroom' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const suite = await finished(res.data.suiteRunId);
    expect(suite).toMatchObject({ status: 'done', error: null });
    const runs = await getDb().prisma.run.findMany({ where: { suiteRunId: res.data.suiteRunId }, select: { config: true, transport: true } });
    expect(runs.length).toBe(res.data.total);
    for (const r of runs) {
      expect(r.transport).toBe('mcp-stdio');
      expect(JSON.parse(r.config)).toMatchObject({ toolServer: 'stockroom', serverWeaknesses: ['oversized_payload'], weaknesses: ['oversized_payload'] });
    }
  }, 300_000);

  it('runs the matrix against a configured server: each row asks for its own flags and stores what the server confirmed', async () => {
    const { startMatrixAction } = await import('./start-matrix');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const res = await startMatrixAction({ datasetId: 'bundled', toolServer: 'stockroom' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    expect(await finished(res.data.suiteRunId)).toMatchObject({ status: 'done' });
    const runs = await getDb().prisma.run.findMany({ where: { suiteRunId: res.data.suiteRunId }, select: { config: true } });
    const confirmed = new Map<string, string>();
    for (const r of runs) {
      const config = JSON.parse(r.config) as { weaknesses: string[]; serverWeaknesses: string[]; toolServer: string };
      expect(config.toolServer).toBe('stockroom');
      // The server holds three of the four flags; injection_unguarded is the harness's own.
      expect(config.serverWeaknesses).toEqual(config.weaknesses.filter((w) => w !== 'injection_unguarded'));
      confirmed.set(config.weaknesses.join(',') || 'none', config.serverWeaknesses.join(',') || 'none');
    }
    expect(confirmed.size).toBe(5);
    expect(confirmed.get('oversized_payload')).toBe('oversized_payload');
    expect(confirmed.get('injection_unguarded')).toBe('none');
  }, 600_000);

  it('fails a suite whose server cannot confirm its flags, naming them, instead of running without them', async () => {
    const { startSuiteAction } = await import('./start-suite');
    env.as('operator');
    const res = await startSuiteAction({ datasetId: 'bundled', weaknesses: ['naive_retry'], toolServer: 'everything' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const suite = await finished(res.data.suiteRunId);
    expect(suite.status).toBe('failed');
    expect(suite.error).toMatch(/\[naive_retry\] cannot be confirmed/);
  }, 120_000);

  it('refuses a tool server for a governed run instead of ignoring it', async () => {
    const { runGovernedAction } = await import('./run-governed');
    env.as('operator');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024', toolServer: 'everything' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.fieldErrors?.toolServer?.[0]).toMatch(/governed runs use the Stockroom tools/);
  });

  it('never takes a command from the browser: the field accepts an id only', async () => {
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    const res = await runOneAction({ datasetId: 'bundled', caseId: 'S001', toolServer: 'node -e "process.exit(1)"' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.fieldErrors?.toolServer).toBeTruthy();
  });
});
