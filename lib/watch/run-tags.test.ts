/**
 * Tags on runs (issue 37), on both databases: taken from a trace's conventional attributes (Langfuse,
 * OpenInference) and from whoever starts a run, stored one row per tag, and then a filter of the runs
 * list, of an evaluator, and a dimension of the hourly rollup — each within the caller's tenant.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/core/client';
import { InvalidInputError } from '../db/core/errors';
import { saveEvaluator } from '../db/review/evaluators';
import { rollupRows, tagSuggestions } from '../db/review/rollup';
import { scoresOfRun } from '../db/review/run-scores';
import { getRunOrThrow, getRunSummary } from '../db/runs/runs-read';
import { countRuns, listRuns } from '../db/runs/runs-list';
import { replaceRun, saveRun } from '../db/runs/runs-write';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { importSpanRecords } from '../otel';
import { readOtlpJson } from '../otel/import/read-otlp';
import type { SpanRecord } from '../otel/import/span-record';
import { watchPendingRuns } from './watch-runs';

const FIXTURE = path.resolve(import.meta.dirname, '../otel/testing/fixtures/genai-python-agent.json');
const providers = await testProviders();

describe.each(providers)('run tags on $name', (provider) => {
  let t: TestDatabase;
  let db: Database;
  const test = provider.skipReason ? it.skip : it;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
    db = t.db;
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The fixture trace under `traceId`, its root tagged the Langfuse way and a child the OpenInference way. */
  const taggedTrace = async (traceId: string) => {
    const spans: SpanRecord[] = (await readOtlpJson([readFileSync(FIXTURE)])).map((s) => ({ ...s, traceId, attributes: { ...s.attributes, 'gen_ai.conversation.id': traceId } }));
    const root = spans.find((s) => s.parentSpanId === null)!;
    const child = spans.find((s) => s.parentSpanId !== null)!;
    root.attributes['langfuse.trace.tags'] = ['production', 'checkout-v2'];
    child.attributes['tag.tags'] = JSON.stringify(['beta', '  production ', 'x'.repeat(100)]);
    return spans;
  };

  test('an imported trace carries its Langfuse and OpenInference tags, a bad one set aside on the run', async () => {
    const imported = await importSpanRecords(await taggedTrace('0'.repeat(31) + '1'), { tenant: 'acme', db });
    const id = imported.runs[0]!.id;
    expect((await getRunSummary(id, db))!.tags).toEqual(['beta', 'checkout-v2', 'production']);
    const { run } = await getRunOrThrow(id, db);
    expect(run.setAside).toContainEqual(expect.objectContaining({ reason: 'invalid', action: 'dropped', detail: 'tag is longer than 64 characters' }));
  });

  test('filters the runs list by a tag within the tenant, text search included; a bad tag filter is refused by name', async () => {
    const mine = await saveRun(makeRun({ runId: 't-mine' }), { ...makeMeta({ tenant: 'acme' }), tags: ['production', 'nightly'] }, db);
    const untagged = await saveRun(makeRun({ runId: 't-none' }), makeMeta({ tenant: 'acme' }), db);
    const theirs = await saveRun(makeRun({ runId: 't-theirs' }), { ...makeMeta({ tenant: 'other' }), tags: ['production'] }, db);
    const tagged = (await listRuns({ filters: { tenant: 'acme', tag: ' production ' } }, db)).items.map((r) => r.id);
    expect(tagged).toContain(mine);
    expect(tagged).not.toContain(untagged);
    expect(tagged).not.toContain(theirs);
    expect((await listRuns({ filters: { tenant: 'acme', tag: 'nightly', text: 'blue widgets' } }, db)).items.map((r) => r.id)).toEqual([mine]);
    expect((await countRuns({ tenant: 'other', tag: 'production' }, {}, db)).count).toBe(1);
    expect((await listRuns({ filters: { tenant: 'acme', tag: 'nightly' } }, db)).items[0]!.tags).toEqual(['nightly', 'production']);
    await expect(listRuns({ filters: { tenant: 'acme', tag: 'y'.repeat(65) } }, db)).rejects.toMatchObject({ field: 'tag' });
  });

  test('refuses a run with a bad tag, naming the field, and stores nothing of it', async () => {
    const before = (await countRuns({}, {}, db)).count;
    const bad = saveRun(makeRun({ runId: 't-bad' }), { ...makeMeta({ tenant: 'acme' }), tags: ['ok', 'bad\u0007bell'] }, db);
    await expect(bad).rejects.toBeInstanceOf(InvalidInputError);
    await expect(bad).rejects.toMatchObject({ field: 'tags' });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    await expect(saveRun(makeRun({ runId: 't-many' }), { ...makeMeta({ tenant: 'acme' }), tags: many }, db)).rejects.toMatchObject({ field: 'tags' });
    expect((await countRuns({}, {}, db)).count).toBe(before);
  });

  test('a run stored again keeps its tags and adds new ones', async () => {
    const meta = { ...makeMeta({ tenant: 'acme' }), tags: ['first'] };
    const live = makeRun({ runId: 't-again' });
    const id = await saveRun(live, meta, db);
    await replaceRun(live, { ...makeMeta({ tenant: 'acme' }), id }, db);
    expect((await getRunSummary(id, db))!.tags).toEqual(['first']);
    await replaceRun(live, { ...makeMeta({ tenant: 'acme' }), id, tags: ['second'] }, db);
    expect((await getRunSummary(id, db))!.tags).toEqual(['first', 'second']);
  });

  test('an evaluator filtered by tag scores only the runs carrying it, and the rollup counts runs by each tag', async () => {
    await watchPendingRuns({ db });
    await saveEvaluator('rollup', { name: 'checkout', kind: 'loop_findings', enabled: true, config: {}, filter: { tag: 'checkout' } }, 'admin', db);
    const hour = '2026-04-01T10';
    const both = await saveRun(makeRun({ runId: 't-both', startedAt: `${hour}:05:00.000Z` }), { ...makeMeta({ tenant: 'rollup' }), tags: ['checkout', 'eu'] }, db);
    const eu = await saveRun(makeRun({ runId: 't-eu', startedAt: `${hour}:15:00.000Z` }), { ...makeMeta({ tenant: 'rollup' }), tags: ['eu'] }, db);
    await saveRun(makeRun({ runId: 't-plain', startedAt: `${hour}:25:00.000Z` }), makeMeta({ tenant: 'rollup' }), db);
    await saveRun(makeRun({ runId: 't-other', startedAt: `${hour}:35:00.000Z` }), { ...makeMeta({ tenant: 'other' }), tags: ['eu'] }, db);
    await watchPendingRuns({ db });
    expect((await scoresOfRun('rollup', both, db)).map((s) => s.evaluatorName)).toEqual(['checkout']);
    expect(await scoresOfRun('rollup', eu, db)).toEqual([]);
    const window = { tenant: 'rollup', dim: 'tag' as const, from: new Date(`${hour}:00:00.000Z`), to: new Date(`${hour}:59:59.000Z`) };
    const byTag = (await rollupRows(window, db)).hours.map((h) => [h.value, h.runs]).sort();
    expect(byTag).toEqual([['checkout', 1], ['eu', 2]]);
    expect((await rollupRows({ ...window, tenant: 'other' }, db)).hours.map((h) => [h.value, h.runs])).toEqual([['eu', 1]]);
    // The day sums on PostgreSQL, the hours on SQLite: the same.
    expect((await rollupRows(window, db, undefined, 'day')).hours.map((h) => [h.value, h.runs]).sort()).toEqual(byTag);
    expect(await tagSuggestions('rollup', db, new Date(`${hour}:30:00.000Z`))).toEqual(['eu', 'checkout']);
  });
});
