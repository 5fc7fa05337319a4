/**
 * Content stored before a redaction class was added (issue 33) on SQLite and PostgreSQL: a class does
 * not reach back into what is already stored, so the evidence records when each tenant's classes
 * changed and `audit verify` says, per tenant, which classes apply since when and how many runs were
 * stored before. A tenant that never redacted records nothing; a change recorded once is not recorded
 * again by the next store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { redactionLines } from '../../../cli/commands/audit';
import { listEvidence, verifyStoredChain } from './governance-evidence';
import { redactionStatus } from './redaction-store';
import { saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const CARD = '4111 1111 1111 1111';

const policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-redaction-classes-'));
const policyFile = path.join(policyDir, 'policy.json');
const previous = process.env.STOCKROOM_POLICY_FILE;

/** The policy file with tenant puffin keeping `classes` out (none: no redaction), read again on its next use. */
function puffinKeeps(classes: string[] | null) {
  const puffin = classes ? { redaction: { classes } } : {};
  fs.writeFileSync(policyFile, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { puffin, tern: {} }, tools: {} }));
  // The policy is cached by the file's time and size: a rewrite within the same millisecond must still show.
  const later = new Date(Date.now() + Math.floor(Math.random() * 1e6));
  fs.utimesSync(policyFile, later, later);
}

beforeAll(() => {
  process.env.STOCKROOM_POLICY_FILE = policyFile;
});
afterAll(() => {
  if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
  else process.env.STOCKROOM_POLICY_FILE = previous;
  fs.rmSync(policyDir, { recursive: true, force: true });
});

describeOnDatabases('redaction classes added later on $name', ({ test, db }) => {
  const store = (tenant: string) => saveRun(makeRun({ query: `Card ${CARD} was charged twice` }), makeMeta({ tenant }), db);
  const recorded = async () => (await listEvidence(db.prisma)).filter((e) => e.body.kind === 'redaction_classes').map((e) => ({ tenant: e.body.rule, classes: e.body.redactions }));

  test('audit verify says since when each tenant keeps its classes out, and how many runs were stored before', async () => {
    puffinKeeps(null);
    await store('puffin');
    await store('tern');
    // Nobody redacts: nothing recorded, nothing said.
    expect(await recorded()).toEqual([]);
    expect((await verifyStoredChain(db.prisma)) as { redactionSince?: unknown }).not.toHaveProperty('redactionSince');

    puffinKeeps(['card']);
    await store('puffin');
    await store('puffin');
    expect(await recorded()).toEqual([{ tenant: 'puffin', classes: ['card'] }]);
    const once = await verifyStoredChain(db.prisma);
    expect(once).toMatchObject({ ok: true, redactionSince: [{ tenant: 'puffin', classes: ['card'], storedBefore: 1 }] });

    // Another class: recorded again; the runs stored under `card` alone count as stored before.
    puffinKeeps(['card', 'email']);
    await store('puffin');
    expect(await recorded()).toEqual([
      { tenant: 'puffin', classes: ['card'] },
      { tenant: 'puffin', classes: ['card', 'email'] },
    ]);
    const twice = await verifyStoredChain(db.prisma);
    expect(twice).toMatchObject({ ok: true, redactionSince: [{ tenant: 'puffin', classes: ['card', 'email'], storedBefore: 3 }] });
    // The governance page says the same for the tenant asking; another tenant has nothing recorded.
    const status = await redactionStatus(db.prisma, 'puffin');
    expect(status).toEqual({ classes: ['card', 'email'], since: (twice as { redactionSince: { since: string }[] }).redactionSince[0]!.since, storedBefore: 3 });
    expect(await redactionStatus(db.prisma, 'tern')).toBeNull();
    const since = (twice as { redactionSince: { since: string }[] }).redactionSince[0]!.since;
    expect(redactionLines((twice as { redactionSince: Parameters<typeof redactionLines>[0] }).redactionSince)).toEqual([
      `audit: redaction at rest: tenant puffin keeps card, email out of content stored since ${since}; 3 run(s) stored before then hold their content as it was stored (under the classes of their time, if any)`,
    ]);

    // Redaction taken away: recorded too, so the audit does not claim what no longer holds.
    puffinKeeps(null);
    await store('puffin');
    expect((await recorded()).at(-1)).toEqual({ tenant: 'puffin', classes: [] });
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true, redactionSince: [{ tenant: 'puffin', classes: [] }] });
  });
});
