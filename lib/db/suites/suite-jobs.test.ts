/**
 * What a worker asks the database around each suite case, on both databases: whether the suite is
 * still active and the case already stored (one query), storing the case (the run and its case row
 * together, and only while the suite is active), and finishing the suite once every case is stored.
 * Also: the cases of one suite running in one process are all stopped by one cancel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../core/client';
import { getRunOrThrow } from '../runs/runs-read';
import { cancelSuiteRun, caseKey, finishSuiteIfComplete, pastCaseDurations, storeSuiteCase, suiteForCase, suiteStatus } from './suite-jobs';
import { replaceRun, saveRun } from '../runs/runs-write';
import { createSuiteRun } from './suites';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';
import { bundledDataset, goldenSubset, liveConfig } from '../../jobs/testing/suite-fixtures';
import { startModelServer } from '../../models/model-server/server';
import { runSuiteCase } from '../../runs/suite-case';
import type { CaseScores } from '../../eval/case-scores';
import { FAKE_MODEL_ID } from '../../harness/model/fake/fake-client';

const scoresOf = (caseId: string, runId: string): CaseScores => ({
  caseId,
  category: 'lookup',
  toolSelection: 1,
  argumentCorrectness: 1,
  trajectoryMatch: true,
  terminationMatch: true,
  mustNotCallOk: true,
  mustNotCallViolations: [],
  stepCountOk: true,
  steps: 3,
  modelCalls: 3,
  answerCorrectnessDeterministic: true,
  factsMissing: [],
  forbiddenFound: [],
  answerCorrectnessJudge: null,
  judgePassed: null,
  judgeRationale: null,
  faithfulnessJudge: null,
  loopFindings: 0,
  repeatedIdentical: 0,
  invalidCalls: 0,
  blockedCalls: 0,
  compactions: 0,
  contextGrowthRatio: 1,
  inputTokens: 100,
  outputTokens: 10,
  costUsd: null,
  terminationReason: 'COMPLETED',
  toolNames: ['search_products'],
  finalAnswer: 'answer',
  runId,
});

describeOnDatabases('suite cases on $name', ({ provider, test, db, t }) => {
  let dir: string;
  beforeAll(async () => {
    if (provider.skipReason) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-suite-jobs-'));
  });
  afterAll(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const newSuite = (total: number, config: Record<string, unknown> = { maxSteps: 12 }, datasetHash = 'h') =>
    createSuiteRun({ kind: 'matrix', config, datasetName: 'stockroom-v1', datasetHash, total, tenant: 'kittiwake', createdBy: 'u1' }, db);
  const store = (suiteRunId: string, caseId: string, setting = 'none') => {
    const runId = `${suiteRunId}-${caseId}`;
    return storeSuiteCase({ run: makeRun({ runId, caseId }), meta: { ...makeMeta({ suiteRunId }), suiteRunId }, setting, caseId, category: 'lookup', scores: scoresOf(caseId, runId) }, db);
  };

  test('reads the suite and whether the case is stored in one answer; a missing suite is null', async () => {
    const id = await newSuite(2);
    expect(await suiteForCase('no-such-suite', 'none', 'c1', db)).toBeNull();
    expect(await suiteForCase(id, 'none', 'c1', db)).toMatchObject({ status: 'queued', config: JSON.stringify({ maxSteps: 12 }), datasetHash: 'h', goldenSha256: null, createdBy: 'u1', tenant: 'kittiwake', caseStored: false });
    expect(await store(id, 'c1')).toMatchObject({ stored: true });
    expect((await suiteForCase(id, 'none', 'c1', db))?.caseStored).toBe(true);
    // Another setting's case of the same id is a different case.
    expect((await suiteForCase(id, 'naive_retry', 'c1', db))?.caseStored).toBe(false);
    expect(await suiteStatus(id, db)).toBe('queued');
    expect(await suiteStatus('no-such-suite', db)).toBeNull();
  });

  // The embedded default stores cases on a second, synchronous connection (sqlite-direct.ts): it
  // must neither block the thread on a write lock this process holds nor fail on it.
  (provider.name === 'sqlite' ? test : it.skip)('SQLite: a case stored while a Prisma transaction of this process holds the write lock waits for it, then stores', async () => {
    const id = await newSuite(2);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const tx = db.prisma.$transaction(async (t) => {
      await t.$executeRaw`UPDATE "SuiteRun" SET "status" = 'running' WHERE "id" = ${id}`;
      locked();
      await held;
    });
    await isLocked;
    const order: string[] = [];
    const storing = store(id, 'c1').then((out) => (order.push('stored'), out));
    await new Promise((r) => setTimeout(r, 50));
    order.push('released');
    release();
    await tx;
    expect(await storing).toMatchObject({ stored: true });
    expect(order).toEqual(['released', 'stored']);
    expect(await suiteStatus(id, db)).toBe('running');
  });

  /** Counts the write transactions begun on the SQLite case connection (savepoints inside one are not counted). */
  const countCommits = () => {
    const conn = db.direct!() as unknown as { transaction: (fn: () => unknown) => { immediate(): unknown } };
    const original = conn.transaction;
    const counter = { commits: 0, restore: () => void (conn.transaction = original) };
    conn.transaction = (fn) => {
      const tx = original.call(conn, fn) as { (): unknown; immediate(): unknown };
      return Object.assign(() => tx(), { immediate: () => (counter.commits++, tx.immediate()) });
    };
    return counter;
  };

  // Issue 36, the first demo: each case was its own SQLite commit (~75 pages of a dozen tables and
  // their indexes written, and a WAL checkpoint every thousand pages). Cases stored in the same turn
  // of the event loop now share one; each still gets its own outcome.
  (provider.name === 'sqlite' ? test : it.skip)('SQLite: cases stored at once share one commit, and a case stored before is refused alone', async () => {
    const id = await newSuite(4);
    expect(await store(id, 'c1')).toMatchObject({ stored: true });
    const counter = countCommits();
    try {
      const outcomes = await Promise.all([store(id, 'c2'), store(id, 'c1'), store(id, 'c3')]);
      expect(outcomes.map((o) => (o.stored ? 'stored' : o.reason))).toEqual(['stored', 'already-stored', 'stored']);
      expect(counter.commits).toBe(1);
    } finally {
      counter.restore();
    }
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId: id } })).toBe(3);
    expect(await db.prisma.run.count({ where: { suiteRunId: id } })).toBe(3);
  });

  (provider.name === 'sqlite' ? test : it.skip)("SQLite: a case that fails in a shared commit fails alone; its neighbours are stored", async () => {
    const id = await newSuite(3);
    const conn = db.direct!() as unknown as { exec(sql: string): void };
    // This connection only: a store of case 'boom' fails inside the database (an error, not a constraint).
    conn.exec(`CREATE TEMP TRIGGER "fail_boom" BEFORE INSERT ON "SuiteCase" WHEN NEW."caseId" = 'boom' BEGIN SELECT json('{boom refused'); END`);
    try {
      const outcomes = await Promise.allSettled([store(id, 'a1'), store(id, 'boom'), store(id, 'a2')]);
      expect(outcomes.map((o) => o.status), JSON.stringify(outcomes)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/malformed JSON/);
    } finally {
      conn.exec('DROP TRIGGER "fail_boom"');
    }
    const stored = await db.prisma.suiteCase.findMany({ where: { suiteRunId: id }, select: { caseId: true } });
    expect(stored.map((c) => c.caseId).sort()).toEqual(['a1', 'a2']);
    expect(await db.prisma.run.count({ where: { suiteRunId: id } })).toBe(2);
  });

  test("a suite case's run stored again under its id keeps its case row's link to it", async () => {
    const id = await newSuite(1);
    const out = await store(id, 'c1');
    if (!out.stored) throw new Error(`not stored: ${out.reason}`);
    const stored = await getRunOrThrow(out.runId, db);
    const { setting: _setting, ...meta } = stored.meta;
    await replaceRun({ ...stored.run, finalAnswer: 'stored again' }, { ...meta, id: out.runId }, db);
    expect((await getRunOrThrow(out.runId, db)).run.finalAnswer).toBe('stored again');
    expect(await db.prisma.suiteCase.findMany({ where: { suiteRunId: id } })).toMatchObject([{ caseId: 'c1', runId: out.runId }]);
  });

  test('stores the run and its case row together, once; the stored run reads back exactly', async () => {
    const id = await newSuite(1);
    const out = await store(id, 'c1');
    if (!out.stored) throw new Error(`not stored: ${out.reason}`);
    const stored = await getRunOrThrow(out.runId, db);
    expect(stored.run).toEqual(makeRun({ runId: `${id}-c1`, caseId: 'c1' }));
    expect(await db.prisma.suiteCase.findMany({ where: { suiteRunId: id } })).toMatchObject([{ setting: 'none', caseId: 'c1', category: 'lookup', runId: out.runId }]);
    const runs = await db.prisma.run.count();
    const blobs = await db.prisma.blob.count();
    expect(await store(id, 'c1')).toEqual({ stored: false, reason: 'already-stored' });
    expect(await db.prisma.run.count()).toBe(runs);
    expect(await db.prisma.blob.count()).toBe(blobs);
  });

  test('finishes the suite only once every case is stored, and only once', async () => {
    const id = await newSuite(2);
    await store(id, 'c1');
    expect(await finishSuiteIfComplete(id, db)).toBe(false);
    expect(await suiteStatus(id, db)).toBe('queued');
    await store(id, 'c2');
    expect(await finishSuiteIfComplete(id, db)).toBe(true);
    expect(await db.prisma.suiteRun.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'done', completed: 2 });
    expect(await db.prisma.suiteSetting.count({ where: { suiteRunId: id } })).toBe(1);
    expect(await finishSuiteIfComplete(id, db)).toBe(false);
    expect(await finishSuiteIfComplete('no-such-suite', db)).toBe(false);
  });

  test('workers finishing the same suite at once (issue 23): one finishes it, none fails on the case rows, and the cases stay as stored', async () => {
    const id = await newSuite(24);
    for (const setting of ['none', 'naive_retry']) for (let i = 1; i <= 12; i++) await store(id, `${setting}-c${i}`, setting);
    const before = await db.prisma.suiteCase.findMany({ where: { suiteRunId: id }, orderBy: [{ setting: 'asc' }, { caseId: 'asc' }] });
    // PostgreSQL: separate clients, as separate worker processes are; SQLite: the one process that runs its jobs.
    const others = provider.name === 'postgres' ? Array.from({ length: 6 }, () => openDatabase(t.url)) : [];
    try {
      const outcomes = await Promise.allSettled([db, ...others].flatMap((d) => Array.from({ length: others.length > 0 ? 2 : 8 }, () => finishSuiteIfComplete(id, d))));
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
      expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === true)).toHaveLength(1);
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
    expect(await db.prisma.suiteRun.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'done', completed: 24 });
    expect(await db.prisma.suiteSetting.count({ where: { suiteRunId: id } })).toBe(2);
    expect(await db.prisma.suiteCase.findMany({ where: { suiteRunId: id }, orderBy: [{ setting: 'asc' }, { caseId: 'asc' }] })).toEqual(before);
  });

  test('a cancelled suite gains no case: nothing of the run is written', async () => {
    const id = await newSuite(3);
    await store(id, 'c1');
    expect(await cancelSuiteRun(id, db)).toBe('cancelled');
    const runs = await db.prisma.run.count();
    expect(await store(id, 'c2')).toEqual({ stored: false, reason: 'suite-not-active' });
    expect(await db.prisma.run.count()).toBe(runs);
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId: id } })).toBe(1);
  });

  test("past durations: the mean of the tenant's stored runs of the same dataset, model, setting and case; none for a case never run", async () => {
    const id = await newSuite(3, { maxSteps: 12, model: 'openai:gpt-4o-mini' }, 'past-hash');
    const save = (caseId: string, setting: string[], durationMs: number, meta: Parameters<typeof makeMeta>[0] = {}, modelId = 'openai:gpt-4o-mini') =>
      saveRun({ ...makeRun({ runId: `past-${caseId}-${durationMs}`, caseId, weaknesses: setting, durationMs }), modelId }, makeMeta({ datasetHash: 'past-hash', ...meta }), db);
    await save('p1', [], 1_000);
    await save('p1', [], 3_000);
    await save('p1', ['naive_retry'], 9_000);
    await save('p2', [], 500);
    // Not counted: another dataset's run of the same case, another tenant's, another model's.
    await save('p2', [], 60_000, { datasetHash: 'other-hash' });
    await save('p2', [], 70_000, { tenant: 'guillemot' });
    await save('p2', [], 80_000, {}, FAKE_MODEL_ID);
    const past = await pastCaseDurations({ suiteRunId: id, settings: ['none', 'naive_retry'], caseIds: ['p1', 'p2', 'p3'] }, db);
    expect(Object.fromEntries(past)).toEqual({ [caseKey('none', 'p1')]: 2_000, [caseKey('naive_retry', 'p1')]: 9_000, [caseKey('none', 'p2')]: 500 });
    // A suite on the fake model reads the fake model's runs (stored under its own id).
    const fake = await newSuite(1, { maxSteps: 12 }, 'past-hash');
    expect(Object.fromEntries(await pastCaseDurations({ suiteRunId: fake, settings: ['none'], caseIds: ['p2'] }, db))).toEqual({ [caseKey('none', 'p2')]: 80_000 });
    expect(await pastCaseDurations({ suiteRunId: 'no-such-suite', settings: ['none'], caseIds: ['p1'] }, db)).toEqual(new Map());
  });

  test('one cancel stops every case of the suite running in this process, and nothing is stored for them', async () => {
    const dataset = bundledDataset();
    const golden = goldenSubset(dataset, 3, dir);
    // A model call would take a minute: only the cancel can end these cases within the test's time.
    const model = await startModelServer({ dataset, latencyMs: 60_000 });
    try {
      const id = await newSuite(3, liveConfig(model.url), dataset.hash);
      const cases = golden.cases.map((c) =>
        runSuiteCase({ suiteRunId: id, datasetDir: dataset.dir, goldenPath: golden.path, setting: 'none', caseId: c.id }, { db }),
      );
      await new Promise((r) => setTimeout(r, 300));
      await cancelSuiteRun(id, db);
      expect(await Promise.all(cases)).toEqual(golden.cases.map(() => ({ stored: false, reason: 'cancelled' })));
      expect(await db.prisma.run.count({ where: { suiteRunId: id } })).toBe(0);
    } finally {
      await model.close();
    }
  });
});
