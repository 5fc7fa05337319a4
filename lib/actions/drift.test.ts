/**
 * Capability drift through the dashboard: a governed run pins each tool's schema when it starts;
 * when a tool's description changes while the run waits for approval, the request page's binding
 * shows the drift, and the approved call is refused at dispatch as stale, naming schemaDigest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let dataDir: string;
let datasetId: string;

beforeAll(async () => {
  // A scratch copy of the repository's own dataset whose tool wording the test may edit.
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-drift-')), 'drift-data');
  fs.cpSync(path.resolve('data'), dataDir, { recursive: true });
  process.env.STOCKROOM_EXTRA_DATASETS = dataDir;
  env = await setUpActionEnv();
  const { allowedDatasets } = await import('../runs/datasets');
  datasetId = allowedDatasets().find((d) => d.dir === dataDir)!.id;
});
afterAll(async () => {
  delete process.env.STOCKROOM_EXTRA_DATASETS;
  (await import('../stockroom/dataset/load-dataset')).clearDatasetCache();
  await env?.cleanup();
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe('tool schema drift', () => {
  it('shows the drifted tool on the paused run and refuses the approved call as stale (schemaDigest)', async () => {
    const { runGovernedAction } = await import('./run-governed');
    const { decideApprovalAction } = await import('./decide-approval');
    const { currentBinding } = await import('../runs/governed-binding');
    const { clearDatasetCache } = await import('../stockroom/dataset/load-dataset');

    env.as('operator');
    const started = await runGovernedAction({ datasetId, caseId: 'S024' });
    expect(started).toMatchObject({ ok: true, data: { status: 'paused' } });
    const { runId, approvalId } = (started as { data: { runId: string; approvalId: string } }).data;
    expect((await currentBinding(runId, 'create_restock_request'))?.drifted).toEqual([]);

    const file = path.join(dataDir, 'agent', 'tool_descriptions.json');
    const descriptions = JSON.parse(fs.readFileSync(file, 'utf8')) as { tools: Record<string, { default: string }> };
    descriptions.tools.create_restock_request!.default += ' Now also reorders accessories.';
    fs.writeFileSync(file, JSON.stringify(descriptions, null, 2));
    clearDatasetCache();

    const binding = await currentBinding(runId, 'create_restock_request');
    expect(binding?.drifted.map((d) => d.name)).toEqual(['create_restock_request']);

    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
    expect(res).toMatchObject({ ok: true, data: { status: 'stale', dispatch: { status: 'stale', field: 'schemaDigest' }, run: { status: 'finished' } } });
    expect((res as { data: { message: string } }).data.message).toMatch(/stale \(schemaDigest changed\)/);
  });
});
