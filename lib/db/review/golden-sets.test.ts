import { beforeAll, expect } from 'vitest';
import { draftCaseFromRun } from '../../eval/golden-sets';
import { NotFoundError } from '../core/errors';
import { addGoldenCase, getGoldenSetOrThrow, getGoldenSetTextOrThrow, importGoldenSet, listGoldenSets, runForDraftOrThrow } from './golden-sets';
import { saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('stored golden sets on $name', ({ provider, test, db }) => {
  let runId: string;
  beforeAll(async () => {
    if (provider.skipReason) return;
    runId = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
  });

  test('a case drafted from a run is added as version 1, a second case as version 2; version 1 keeps its cases', async () => {
    const source = await runForDraftOrThrow('kittiwake', runId, db);
    const first = draftCaseFromRun(source);
    expect(await addGoldenCase('kittiwake', 'from-runs', first, 'u1', db)).toMatchObject({ name: 'from-runs', version: 1, caseCount: 1 });
    const second = draftCaseFromRun(source, new Set([first.id]));
    expect(await addGoldenCase('kittiwake', 'from-runs', second, 'u1', db)).toMatchObject({ version: 2, caseCount: 2 });
    expect((await getGoldenSetOrThrow('kittiwake', 'from-runs', 1, db)).cases.map((c) => c.id)).toEqual([first.id]);
    const newest = await getGoldenSetOrThrow('kittiwake', 'from-runs', null, db);
    expect(newest.path).toBe('golden-set://kittiwake/from-runs@2');
    expect(newest.cases.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(newest.cases[0]!.referenceAnswer).toBe(source.finalAnswer);
    await expect(addGoldenCase('kittiwake', 'from-runs', first, 'u1', db)).rejects.toMatchObject({ field: 'id' });
    expect((await listGoldenSets('kittiwake', db)).map((s) => [s.name, s.version])).toEqual([['from-runs', 2]]);
  });

  test('sets are per tenant: another tenant neither lists nor finds them, nor drafts from their runs', async () => {
    expect(await listGoldenSets('puffin', db)).toEqual([]);
    await expect(getGoldenSetOrThrow('puffin', 'from-runs', null, db)).rejects.toBeInstanceOf(NotFoundError);
    await expect(runForDraftOrThrow('puffin', runId, db)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('an import in the golden JSONL format round-trips with the export; a bad line is refused naming it, storing nothing', async () => {
    const exported = await getGoldenSetTextOrThrow('kittiwake', 'from-runs', null, db);
    expect(await importGoldenSet('puffin', 'copy', exported.jsonl, 'u2', db)).toMatchObject({ version: 1, caseCount: 2 });
    expect((await getGoldenSetTextOrThrow('puffin', 'copy', null, db)).jsonl).toBe(exported.jsonl);
    const broken = `${exported.jsonl}{"id": "X9", "category": "c", "query": "q"}\n`;
    await expect(importGoldenSet('puffin', 'copy', broken, 'u2', db)).rejects.toMatchObject({ field: 'jsonl', message: expect.stringMatching(/line 3 field reference_answer/) });
    await expect(importGoldenSet('puffin', 'Bad Name', exported.jsonl, 'u2', db)).rejects.toMatchObject({ field: 'name' });
    expect((await listGoldenSets('puffin', db)).map((s) => s.version)).toEqual([1]);
  });
});
