/**
 * `judge calibrate --labels tenant:T`: grades the runs T's reviewers labelled pass or fail, stored in
 * T; below the minimum it is refused saying how many more labels are needed; a bad flag names itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { addRunLabel } from '../lib/db/review/labels';
import { saveRun } from '../lib/db/runs/runs-write';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { MIN_CALIBRATION_LABELS } from '../lib/eval/label-calibration';
import { TEST_EVIDENCE_KEY } from '../lib/governance/evidence-signing';
import { migrate } from '../scripts/db-migrate.mjs';
import { runInProcess } from './testing/in-process';

const judgeCli = (args: string[], env: Record<string, string | undefined>) => runInProcess('judge', args, env);

describe('judge calibrate --labels', () => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('sqlite'));
    await migrate({ url });
    db = openDatabase(url);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('refuses below the minimum with how many more are needed, then calibrates and stores in the tenant', async () => {
    const by = { id: 'u1', name: 'Rita' };
    const ids: string[] = [];
    for (let i = 0; i < MIN_CALIBRATION_LABELS; i += 1) ids.push(await saveRun(makeRun({ rounds: 1 + (i % 3) }), makeMeta({ tenant: 'puffin' }), db));
    await addRunLabel('puffin', { runId: ids[0]!, step: null, verdict: 'pass', category: null, score: null, comment: '', by }, db, TEST_EVIDENCE_KEY);
    const early = await judgeCli(['calibrate', '--labels', 'tenant:puffin'], { DATABASE_URL: url });
    expect(early).toMatchObject({ code: 2, stderr: expect.stringContaining(`label ${MIN_CALIBRATION_LABELS - 1} more`) });
    for (const [i, id] of ids.entries()) await addRunLabel('puffin', { runId: id, step: null, verdict: i % 3 === 0 ? 'fail' : 'pass', category: null, score: null, comment: '', by }, db, TEST_EVIDENCE_KEY);
    const r = await judgeCli(['calibrate', '--labels', 'tenant:puffin', '--json'], { DATABASE_URL: url });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { id: string; tenant: string; set: { name: string }; items: { id: string }[] };
    expect(out).toMatchObject({ tenant: 'puffin', set: { name: 'labels:puffin' } });
    expect(out.items.map((i) => i.id).sort()).toEqual([...ids].sort());
    expect(await db.prisma.judgeCalibration.count({ where: { tenant: 'puffin' } })).toBe(1);
    // Kittiwake has no labels: nothing to calibrate on there.
    expect((await judgeCli(['calibrate', '--labels', 'tenant:kittiwake'], { DATABASE_URL: url })).code).toBe(2);
  });

  it('names the flag when it is malformed or combined with --set', async () => {
    expect(await judgeCli(['calibrate', '--labels', 'puffin'], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--labels') });
    expect(await judgeCli(['calibrate', '--labels', 'tenant:puffin', '--set', 'x.jsonl'], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--set and --labels') });
  });
});
