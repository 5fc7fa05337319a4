/**
 * Issue 32 (the web server with the database away) and issue 42 (a decision sent while PostgreSQL
 * restarts): on a PostgreSQL cluster of this test's own, stopped and started again. While it is down
 * a decision is refused with "not recorded … send it again" (code db_unavailable, the boundary's
 * 503) and writes nothing; a read route answers 503 with Retry-After; once it is back the same
 * process serves again by itself, and the same decision is recorded once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgClusterSkipReason, startPgCluster, type PgCluster } from '../db/testing/pg-cluster';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const skip = pgClusterSkipReason();
if (skip) console.warn(`db-unavailable-pg.test: skipped: ${skip}`);

let cluster: PgCluster;
let env: ActionEnv;
let policyDir: string;

const NOT_RECORDED = 'Your decision was not recorded: the database is unavailable. Nothing changed; send it again.';

describe.skipIf(skip)('the web server while its PostgreSQL restarts', () => {
  beforeAll(async () => {
    policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-policy-'));
    fs.copyFileSync(path.resolve('config/policy.json'), path.join(policyDir, 'policy.json'));
    process.env.STOCKROOM_POLICY_FILE = path.join(policyDir, 'policy.json');
    cluster = await startPgCluster();
    env = await setUpActionEnv({ provider: 'postgres', pgServer: cluster.server });
  }, 120_000);
  afterAll(async () => {
    delete process.env.STOCKROOM_POLICY_FILE;
    await cluster?.start().catch(() => undefined); // already running
    await env?.cleanup();
    await cluster?.destroy();
    fs.rmSync(policyDir, { recursive: true, force: true });
  });

  it('refuses a decision sent while the database is down as not recorded, writes nothing, and records it once sent again', async () => {
    const { runGovernedAction } = await import('./run-governed');
    const { decideApprovalAction } = await import('./decide-approval');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const paused = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!paused.ok || !paused.data.approvalId) throw new Error(`the governed S024 run did not pause: ${JSON.stringify(paused)}`);
    const id = paused.data.approvalId;

    env.as('reviewer');
    await cluster.stop();
    const refused = await decideApprovalAction({ id, verdict: 'approve', reason: 'the supplier confirmed' });
    expect(refused).toEqual({ ok: false, code: 'db_unavailable', error: NOT_RECORDED });
    await cluster.start();

    const prisma = getDb().prisma;
    expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({ status: 'pending' });
    expect(await prisma.approvalDecision.count({ where: { requestId: id } })).toBe(0);

    const again = await decideApprovalAction({ id, verdict: 'approve', reason: 'the supplier confirmed' });
    expect(again).toMatchObject({ ok: true, data: { status: 'approved' } });
    expect(await prisma.approvalDecision.count({ where: { requestId: id } })).toBe(1);
  });

  it('answers a read route 503 with Retry-After while the database is down, and 200 again once it is back', async () => {
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    const run = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!run.ok) throw new Error(run.error);
    const { GET } = await import('../../app/api/runs/[id]/progress/route');
    const { headers } = await import('next/headers');
    const ask = async () => GET(new Request(`http://127.0.0.1/api/runs/${run.data.runId}/progress`, { headers: await headers() }), { params: Promise.resolve({ id: run.data.runId }) });

    await cluster.stop();
    const down = await ask();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await down.json()).toEqual({ error: 'The database is unavailable, retrying.', code: 'db_unavailable' });
    await cluster.start();

    const up = await ask();
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'finished' });
  });
});
