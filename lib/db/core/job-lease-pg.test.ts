/**
 * Fencing (issue 32): a store made under a job's lease checks, in its own transaction, that the job
 * is still locked by this worker. A worker that was paused past its lease and woke after its job went
 * to another must store nothing: no second copy of a case, no overwrite of a queued run's record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { JobLeaseLostError, type JobLease } from './job-lease';
import { replaceRun, saveRun } from '../runs/runs-write';
import { finishSuiteIfComplete, storeSuiteCase } from '../suites/suite-jobs';
import { createSuiteRun } from '../suites/suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { testProviders, type TestDatabase } from '../testing/test-databases';
import { GRAPHILE_SCHEMA, GraphileQueue } from '../../jobs/graphile';
import type { CaseScores } from '../../eval/case-scores';

const pg = (await testProviders()).find((p) => p.name === 'postgres')!;

const scoresOf = (caseId: string, runId: string): CaseScores => ({
  caseId, category: 'lookup', toolSelection: 1, argumentCorrectness: 1, trajectoryMatch: true, terminationMatch: true, mustNotCallOk: true,
  mustNotCallViolations: [], stepCountOk: true, steps: 3, modelCalls: 3, answerCorrectnessDeterministic: true, factsMissing: [], forbiddenFound: [],
  answerCorrectnessJudge: null, judgePassed: null, judgeRationale: null, faithfulnessJudge: null, loopFindings: 0, repeatedIdentical: 0, invalidCalls: 0,
  blockedCalls: 0, compactions: 0, contextGrowthRatio: 1, inputTokens: 100, outputTokens: 10, costUsd: null, terminationReason: 'COMPLETED',
  toolNames: ['search_products'], finalAnswer: 'answer', runId,
});

describe.skipIf(pg.skipReason !== null)('stores fenced by the job lease (PostgreSQL)', () => {
  let t: TestDatabase;
  let db: Database;
  let queue: GraphileQueue;
  beforeAll(async () => {
    t = await pg.create();
    db = t.db;
    queue = new GraphileQueue(t.url);
    await queue.countJobs(); // graphile-worker's schema
  });
  afterAll(async () => {
    await queue?.close();
    await t?.drop();
  });

  /** A job locked by `holder` (as graphile-worker's get_job leaves it), and its id. */
  const lockedJob = async (key: string, holder: string | null): Promise<string> => {
    await queue.enqueue('sweep', {}, { key });
    return queue.withClient(async (c) => (await c.query<{ id: string }>(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET locked_by = $2, locked_at = now() WHERE key = $1 RETURNING id::text AS id`, [key, holder])).rows[0]!.id);
  };
  const release = (jobId: string, to: string | null) => queue.withClient((c) => c.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET locked_by = $2 WHERE id = $1::bigint`, [jobId, to]));
  const storeCase = (suiteRunId: string, caseId: string, lease: JobLease) => {
    const runId = `${suiteRunId}-${caseId}-${lease.lockedBy}`;
    return storeSuiteCase({ run: makeRun({ runId, caseId }), meta: { ...makeMeta({ suiteRunId }), suiteRunId }, setting: 'none', caseId, category: 'lookup', scores: scoresOf(caseId, runId), lease }, db);
  };

  it('stores a case while the job is this worker’s, and refuses (nothing written) once it was released or given to another', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'stockroom-v1', datasetHash: 'h', total: 3, tenant: 'kittiwake', createdBy: 'u1' }, db);
    const held = await lockedJob('lease-a', 'pool-a');
    expect(await storeCase(suiteRunId, 'c1', { jobId: held, lockedBy: 'pool-a' })).toMatchObject({ stored: true });

    const lost = await lockedJob('lease-b', 'pool-a');
    await release(lost, 'pool-b'); // pool-a paused past its lease; pool-b took the job
    await expect(storeCase(suiteRunId, 'c2', { jobId: lost, lockedBy: 'pool-a' })).rejects.toBeInstanceOf(JobLeaseLostError);
    await release(lost, null); // released, not taken yet
    await expect(storeCase(suiteRunId, 'c2', { jobId: lost, lockedBy: 'pool-a' })).rejects.toThrow(/no longer held by this worker/);
    await expect(storeCase(suiteRunId, 'c2', { jobId: '999999', lockedBy: 'pool-a' })).rejects.toBeInstanceOf(JobLeaseLostError); // finished and deleted
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId, caseId: 'c2' } })).toBe(0);
    expect(await db.prisma.run.count({ where: { suiteRunId, caseId: 'c2' } })).toBe(0);
    // The new owner stores it, once.
    expect(await storeCase(suiteRunId, 'c2', { jobId: lost, lockedBy: 'pool-b' }).catch((e: unknown) => e)).toBeInstanceOf(JobLeaseLostError); // released to nobody yet
    await release(lost, 'pool-b');
    expect(await storeCase(suiteRunId, 'c2', { jobId: lost, lockedBy: 'pool-b' })).toMatchObject({ stored: true });
    expect(await db.prisma.run.count({ where: { suiteRunId, caseId: 'c2' } })).toBe(1);
  });

  it('a job released and locked again by the same pool is a new lease: the earlier attempt stores nothing, the new one stores', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'stockroom-v1', datasetHash: 'h', total: 1, tenant: 'kittiwake', createdBy: 'u1' }, db);
    const job = await lockedJob('lease-aba', 'pool-a');
    const lockedAt = async () => queue.withClient(async (c) => (await c.query<{ locked_at: Date }>(`SELECT locked_at FROM ${GRAPHILE_SCHEMA}._private_jobs WHERE id = $1::bigint`, [job])).rows[0]!.locked_at);
    const first: JobLease = { jobId: job, lockedBy: 'pool-a', lockedAt: await lockedAt() };
    // pool-a was paused past its lease: the job was released, and pool-a itself (awake again) locked it for its next attempt.
    await queue.withClient((c) => c.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET locked_by = NULL, locked_at = NULL WHERE id = $1::bigint`, [job]));
    await queue.withClient((c) => c.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET locked_by = 'pool-a', locked_at = now() + interval '5 milliseconds' WHERE id = $1::bigint`, [job]));
    const second: JobLease = { jobId: job, lockedBy: 'pool-a', lockedAt: await lockedAt() };
    await expect(storeCase(suiteRunId, 'c1', first)).rejects.toThrow(/released and locked again by this worker/);
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId } })).toBe(0);
    expect(await storeCase(suiteRunId, 'c1', second)).toMatchObject({ stored: true });
  });

  it('the count after a stored case reads the lease in the same statement: false while held, JobLeaseLostError once released; a suite it completes is finished whoever holds the job', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'stockroom-v1', datasetHash: 'h', total: 2, tenant: 'kittiwake', createdBy: 'u1' }, db);
    const job = await lockedJob('lease-count', 'pool-a');
    const lease: JobLease = { jobId: job, lockedBy: 'pool-a' };
    expect(await storeCase(suiteRunId, 'c1', lease)).toMatchObject({ stored: true });
    expect(await finishSuiteIfComplete(suiteRunId, db, lease)).toBe(false);
    await release(job, 'pool-b'); // pool-a paused past its lease after its store; pool-b took the job
    await expect(finishSuiteIfComplete(suiteRunId, db, lease)).rejects.toThrow(/now held by pool-b/);
    await release(job, null);
    await expect(finishSuiteIfComplete(suiteRunId, db, lease)).rejects.toThrow(/released or finished/);
    await expect(finishSuiteIfComplete(suiteRunId, db, { jobId: '999999', lockedBy: 'pool-a' })).rejects.toBeInstanceOf(JobLeaseLostError); // finished and deleted
    await expect(finishSuiteIfComplete('no-such-suite', db, lease)).rejects.toBeInstanceOf(JobLeaseLostError);
    expect(await finishSuiteIfComplete('no-such-suite', db)).toBe(false);
    // The last case, stored by the new owner: the suite is finished once, then its count answers false under a lease still held.
    await release(job, 'pool-b');
    expect(await storeCase(suiteRunId, 'c2', { jobId: job, lockedBy: 'pool-b' })).toMatchObject({ stored: true });
    expect(await finishSuiteIfComplete(suiteRunId, db, lease)).toBe(true);
    expect(await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } })).toMatchObject({ status: 'done', completed: 2 });
    expect(await finishSuiteIfComplete(suiteRunId, db, { jobId: job, lockedBy: 'pool-b' })).toBe(false);
    await expect(finishSuiteIfComplete(suiteRunId, db, lease)).rejects.toBeInstanceOf(JobLeaseLostError);
  });

  it('a queued run’s record is not overwritten by a worker whose job went to another', async () => {
    const durationOf = async (id: string) => (await db.prisma.run.findUniqueOrThrow({ where: { id }, select: { durationMs: true } })).durationMs;
    const id = await saveRun(makeRun({ runId: 'queued-run', caseId: 'c9', durationMs: 111 }), makeMeta(), db);
    const job = await lockedJob('lease-run', 'pool-b');
    const stale = makeRun({ runId: 'queued-run', caseId: 'c9', durationMs: 222 });
    await expect(replaceRun(stale, { ...makeMeta(), id }, db, { jobId: job, lockedBy: 'pool-a' })).rejects.toBeInstanceOf(JobLeaseLostError);
    expect(await durationOf(id)).toBe(111);
    await replaceRun(makeRun({ runId: 'queued-run', caseId: 'c9', durationMs: 333 }), { ...makeMeta(), id }, db, { jobId: job, lockedBy: 'pool-b' });
    expect(await durationOf(id)).toBe(333);
  });
});
