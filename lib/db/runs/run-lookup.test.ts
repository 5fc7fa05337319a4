import { expect } from 'vitest';
import { InvalidInputError } from '../core/errors';
import { findSameCaseRun, resolveRunId } from './run-lookup';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';
import { DEFAULT_TENANT } from '../../governance/principal';

/** The tenant runs are saved under when their meta names none. */
const T = DEFAULT_TENANT;

describeOnDatabases('finding runs on $name', ({ provider, test, db }) => {
  test('accepts the 8-character short id the pages show, and the full id', async () => {
    const id = await saveRun(makeRun(), makeMeta(), db);
    expect(await resolveRunId(id.slice(-8), 'a', T, db)).toBe(id);
    expect(await resolveRunId(id, 'a', T, db)).toBe(id);
    expect(await resolveRunId('zzzzzzzz', 'a', T, db)).toBeNull();
    // Another tenant's run answers as missing, by short id and by full id.
    expect(await resolveRunId(id.slice(-8), 'a', 'another-tenant', db)).toBeNull();
    expect(await resolveRunId(id, 'a', 'another-tenant', db)).toBeNull();
  });

  test('refuses a suffix too short to be an id, naming the field', async () => {
    const err = await resolveRunId('abc', 'b', T, db).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    expect((err as InvalidInputError).field).toBe('b');
  });

  test('finds the same case under another setting, newest first, never the run itself', async () => {
    const caseId = `C-${provider.name}`;
    const weak = await saveRun(makeRun({ caseId, weaknesses: ['naive_retry'] }), makeMeta(), db);
    expect(await findSameCaseRun(weak, 'none', T, db)).toBeNull();
    await saveRun(makeRun({ caseId }), makeMeta(), db);
    const newer = await saveRun(makeRun({ caseId }), makeMeta(), db);
    expect(await findSameCaseRun(weak, 'none', T, db)).toBe(newer);
    expect(await findSameCaseRun(newer, 'naive_retry', T, db)).toBe(weak);
    expect(await findSameCaseRun(weak, 'naive_retry', T, db)).toBeNull();
  });
});

