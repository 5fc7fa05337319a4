import { beforeAll, expect } from 'vitest';
import { TEST_EVIDENCE_KEY } from '../../governance/evidence-signing';
import { InvalidInputError, NotFoundError } from '../core/errors';
import { listEvidence, verifyStoredChain } from '../governance/governance-evidence';
import { addRunLabel, currentLabelSet, currentTenantLabels, labelsOfRun, labelSummaries, saveLabelSet, unverifiedLabels } from './labels';
import { labelCalibrationSource } from '../../runs/label-calibration';
import { countRuns, listRuns } from '../runs/runs-list';
import { saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const reviewer = { id: 'u-rev', name: 'Rita Reviewer' };

describeOnDatabases('reviewers\' labels on $name', ({ provider, test, db }) => {
  let runA: string;
  let runB: string;
  let other: string;
  beforeAll(async () => {
    if (provider.skipReason) return;
    runA = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
    runB = await saveRun(makeRun({ rounds: 2 }), makeMeta({ tenant: 'kittiwake' }), db);
    other = await saveRun(makeRun(), makeMeta({ tenant: 'puffin' }), db);
  });

  test('a label of a step is kept with who and when, recorded in the run\'s evidence chain, and the chain verifies', async () => {
    const label = await addRunLabel('kittiwake', { runId: runA, step: 2, verdict: 'fail', category: 'wrong_arguments', score: 0.25, comment: 'sku missing', by: reviewer }, db, TEST_EVIDENCE_KEY);
    expect(label).toMatchObject({ runId: runA, step: 2, verdict: 'fail', category: 'wrong_arguments', score: 0.25, createdBy: 'u-rev', createdByName: 'Rita Reviewer', labelSetVersion: 0 });
    const events = (await listEvidence(db.prisma, { runId: runA })).map((e) => e.body);
    expect(events).toEqual([expect.objectContaining({ kind: 'label', step: 2, decision: 'fail', rule: 'wrong_arguments', actor: 'u-rev', resultDigest: label.digest })]);
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
    expect(await unverifiedLabels('kittiwake', runA, db)).toEqual([]);
  });

  test('a label rewritten in the database no longer matches its evidence', async () => {
    const label = await addRunLabel('kittiwake', { runId: runA, step: null, verdict: 'fail', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'pass' } });
    expect(await unverifiedLabels('kittiwake', runA, db)).toEqual([label.id]);
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'fail' } });
    expect(await unverifiedLabels('kittiwake', runA, db)).toEqual([]);
  });

  test('a newer label supersedes the older one, which stays in the history', async () => {
    await addRunLabel('kittiwake', { runId: runA, step: null, verdict: 'pass', category: null, score: 1, comment: 'on second look', by: reviewer }, db, TEST_EVIDENCE_KEY);
    const history = await labelsOfRun('kittiwake', runA, db);
    expect(history.filter((l) => l.step === null).map((l) => l.verdict)).toEqual(['fail', 'pass']);
    expect((await labelSummaries('kittiwake', [runA, runB], db)).get(runA)).toMatchObject({ verdict: 'pass' });
    expect((await labelSummaries('kittiwake', [runA, runB], db)).has(runB)).toBe(false);
  });

  test('another tenant\'s run is not found, and its labels are not listed', async () => {
    await expect(addRunLabel('puffin', { runId: runA, step: null, verdict: 'pass', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY)).rejects.toBeInstanceOf(NotFoundError);
    expect(await labelsOfRun('puffin', runA, db)).toEqual([]);
    expect((await labelSummaries('puffin', [runA], db)).size).toBe(0);
  });

  test('refuses a verdict or category outside the label set and a step the run does not have, naming the field, writing nothing', async () => {
    const before = await db.prisma.runLabel.count();
    const bad = (o: Partial<{ step: number | null; verdict: string; category: string | null }>) =>
      addRunLabel('kittiwake', { runId: runB, step: null, verdict: 'pass', category: null, score: null, comment: '', by: reviewer, ...o }, db, TEST_EVIDENCE_KEY);
    await expect(bad({ verdict: 'meh' })).rejects.toMatchObject({ field: 'verdict' });
    await expect(bad({ category: 'nonsense' })).rejects.toMatchObject({ field: 'category' });
    await expect(bad({ step: 99 })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await db.prisma.runLabel.count()).toBe(before);
    expect(await listEvidence(db.prisma, { runId: runB })).toEqual([]);
  });

  test('a tenant\'s label set is versioned; labels record the version they were given under', async () => {
    expect((await currentLabelSet('kittiwake', db)).version).toBe(0);
    await expect(saveLabelSet('kittiwake', { verdicts: ['good', 'bad'], categories: [] }, 'u-admin', db)).rejects.toMatchObject({ field: 'verdicts' });
    const v1 = await saveLabelSet('kittiwake', { verdicts: ['pass', 'fail', 'unsure'], categories: ['stale_data'] }, 'u-admin', db);
    expect(v1.version).toBe(1);
    expect((await currentLabelSet('puffin', db)).version).toBe(0);
    const label = await addRunLabel('kittiwake', { runId: runB, step: 1, verdict: 'unsure', category: 'stale_data', score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    expect(label.labelSetVersion).toBe(1);
    await expect(addRunLabel('kittiwake', { runId: runB, step: 1, verdict: 'fail', category: 'wrong_tool', score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY)).rejects.toMatchObject({ field: 'category' });
  });

  test('the runs list filters by labelled or not and by label value, in the tenant only', async () => {
    const ids = async (filters: Parameters<typeof listRuns>[0]) => (await listRuns(filters, db)).items.map((r) => r.id).sort();
    expect(await ids({ filters: { tenant: 'kittiwake', labelled: 'yes' } })).toEqual([runA, runB].sort());
    await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake', id: 'unlabelled-1' }), db);
    expect(await ids({ filters: { tenant: 'kittiwake', labelled: 'no' } })).toEqual(['unlabelled-1']);
    expect(await ids({ filters: { tenant: 'kittiwake', label: 'unsure' } })).toEqual([runB]);
    expect(await ids({ filters: { tenant: 'kittiwake', label: 'wrong_arguments' } })).toEqual([runA]);
    expect(await ids({ filters: { tenant: 'puffin', labelled: 'yes' } })).toEqual([]);
    expect((await countRuns({ tenant: 'kittiwake', label: 'unsure', text: 'blue widgets' }, {}, db)).count).toBe(1);
    expect(other).toBeTruthy();
  });

  test('the runs list filters by a tool error, by duration and by known cost above a figure', async () => {
    const ids = async (filters: Parameters<typeof listRuns>[0]) => (await listRuns(filters, db)).items.map((r) => r.id);
    // The fixture's step 2 tool call errors; a one-round run has none.
    const clean = await saveRun(makeRun({ rounds: 1 }), makeMeta({ tenant: 'kittiwake' }), db);
    const errored = await ids({ filters: { tenant: 'kittiwake', toolError: true } });
    expect(errored).toContain(runA);
    expect(errored).not.toContain(clean);
    const runs = (await listRuns({ filters: { tenant: 'kittiwake' } }, db)).items;
    const slowest = Math.max(...runs.map((r) => r.durationMs));
    expect(await ids({ filters: { tenant: 'kittiwake', minDurationMs: slowest } })).toEqual([]);
    const priced = runs.flatMap((r) => (r.costUsd !== null ? [r.costUsd] : []));
    const cheapest = Math.min(...priced);
    expect((await ids({ filters: { tenant: 'kittiwake', minCostUsd: cheapest } })).length).toBe(priced.filter((usd) => usd > cheapest).length);
  });

  // Issue 33: a label edited in the database passed `audit verify` as intact; only the replay noticed.
  test('a label edited in the database fails audit verify, naming it, whichever column was edited; the edit undone verifies again', async () => {
    const run = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
    const label = await addRunLabel('kittiwake', { runId: run, step: null, verdict: 'pass', category: null, score: 0.9, comment: 'fine', by: reviewer }, db, TEST_EVIDENCE_KEY);
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
    const edits: Record<string, unknown>[] = [{ verdict: 'fail' }, { comment: 'rewritten' }, { score: 0.1 }, { createdBy: 'u-mallory' }, { step: 1 }, { category: 'wrong_tool' }];
    for (const data of edits) {
      await db.prisma.runLabel.update({ where: { id: label.id }, data });
      const r = await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY);
      expect(r, JSON.stringify(data)).toMatchObject({ ok: false, chain: run, reason: expect.stringContaining(`label ${label.id} of run ${run}`) });
      expect(await unverifiedLabels('kittiwake', run, db)).toEqual([label.id]);
      await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'pass', comment: 'fine', score: 0.9, createdBy: 'u-rev', step: null, category: null } });
    }
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
    // Edited consistently (the row's digest recomputed to match its new verdict): the signed event still says otherwise.
    const { labelDigest } = await import('../../eval/label-digest');
    const forged = { ...label, verdict: 'fail' };
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'fail', digest: labelDigest(forged) } });
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match its evidence event/) });
    // Pointed at another event of its chain.
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'pass', digest: label.digest, evidenceSeq: label.evidenceSeq + 7 } });
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: false, reason: expect.stringMatching(/has no label event/) });
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { evidenceSeq: label.evidenceSeq } });
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
  });

  test('a label deleted in the database while its run stays fails audit verify, naming its event; the run deleted with it verifies', async () => {
    const run = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
    const label = await addRunLabel('kittiwake', { runId: run, step: null, verdict: 'pass', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    await db.prisma.runLabel.delete({ where: { id: label.id } });
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: false, chain: run, reason: `label event ${label.evidenceSeq} of run ${run} has no stored label (deleted in the database)` });
    // A run removed whole (retention, deleteRun) takes its labels with it: nothing disagrees.
    await db.prisma.run.delete({ where: { id: run } });
    expect(await verifyStoredChain(db.prisma, TEST_EVIDENCE_KEY)).toMatchObject({ ok: true });
  });

  test('a calibration on labels leaves out, and names, a current label that no longer matches its evidence', async () => {
    const before = await labelCalibrationSource('kittiwake', db);
    expect(before.unverified).toEqual([]);
    const run = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
    const label = await addRunLabel('kittiwake', { runId: run, step: null, verdict: 'pass', category: null, score: null, comment: '', by: reviewer }, db, TEST_EVIDENCE_KEY);
    expect((await labelCalibrationSource('kittiwake', db)).labelled).toBe(before.labelled + 1);
    await db.prisma.$executeRawUnsafe(`UPDATE "RunLabel" SET "verdict" = 'fail' WHERE "id" = '${label.id}'`);
    const after = await labelCalibrationSource('kittiwake', db);
    expect(after.labelled).toBe(before.labelled);
    expect(after.unverified).toEqual([{ id: label.id, runId: run, verdict: 'fail' }]);
    const { labels, unverified } = await currentTenantLabels('kittiwake', {}, db);
    expect(labels.map((l) => l.id)).not.toContain(label.id);
    expect(unverified.map((l) => l.id)).toEqual([label.id]);
    // Another tenant sees none of it.
    expect((await labelCalibrationSource('puffin', db)).unverified).toEqual([]);
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'pass' } });
  });
});
