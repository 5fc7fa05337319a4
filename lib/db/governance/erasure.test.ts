/**
 * Erasure (issue 33) on SQLite and PostgreSQL: a run's content, or every run of a subject, is erased
 * so that a database dump (sqlite3 .dump, pg_dump) holds none of the values; `audit verify` stays
 * intact, counts the erasure and still sees tampering; the receipt verifies with the public key;
 * another tenant's run or subject is not found; a failure half-way leaves the content, and running
 * it again completes it.
 */
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { checkReceipt, ERASED } from '../../governance/erasure';
import { evidenceBody } from '../../governance/evidence';
import { publicKeyring, signingKeyring, TEST_EVIDENCE_KEY } from '../../governance/evidence-signing';
import { eraseContent } from './erasure';
import { NotFoundError } from '../core/errors';
import { PrismaEvidenceSink, verifyStoredChain } from './governance-evidence';
import { addRunLabel, unverifiedLabels } from '../review/labels';
import { getRunOrThrow } from '../runs/runs-read';
import { saveRun } from '../runs/runs-write';
import { cataloguePayload, makeMeta, makeRun } from '../testing/run-fixtures';
import { type TestDatabase } from '../testing/test-databases';
import { describeOnDatabases } from '../testing/on-databases';

const { privateKey } = generateKeyPairSync('ed25519');
const key = signingKeyring(privateKey, [], TEST_EVIDENCE_KEY as Buffer);
const auditor = publicKeyring([createPublicKey(privateKey)]);
const reviewer = { id: 'u-rev', name: 'Rita' };

/** A run whose question, tool results and label comment carry `marker` (and a card number). */
function personalRun(marker: string, card = '5500 0000 0000 0004') {
  const payload = { items: [{ sku: 'SKU-1', note: `${marker} delivery note` }], ...(cataloguePayload(3) as object) };
  return makeRun({ query: `Where is the order of ${marker}, card ${card}?`, payload });
}

function dump(t: TestDatabase, provider: string): string {
  if (provider === 'sqlite') return execFileSync('sqlite3', [t.url.replace(/^file:/, ''), '.dump'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return execFileSync('pg_dump', ['--data-only', t.url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

describeOnDatabases('erasure on $name', ({ provider, test, db, t }) => {
  async function governedChain(runId: string) {
    const sink = new PrismaEvidenceSink(db.prisma, key, null);
    for (const kind of ['policy_decision', 'effect'] as const) await sink.append(evidenceBody({ kind, at: new Date().toISOString(), runId, decision: 'allow', argumentsDigest: 'd'.repeat(64) }));
  }

  test('erases a run so a dump holds none of its values; audit verify stays intact and counts it; the receipt verifies with the public key', async () => {
    const runId = await saveRun(personalRun('Zebediah Quux', '4111 1111 1111 1111'), { ...makeMeta({ tenant: 'kittiwake' }), tags: ['Zebediah Quux'] }, db);
    // Its tool arguments are the fixture's; the erased run's call signatures (which hold them) go too.
    const kept = await saveRun(personalRun('Ottoline Vane'), makeMeta({ tenant: 'kittiwake' }), db);
    await governedChain(runId);
    const label = await addRunLabel('kittiwake', { runId, step: null, verdict: 'fail', category: null, score: null, comment: 'Zebediah Quux called twice', by: reviewer }, db, key);
    expect(dump(t, provider.name)).toContain('Zebediah Quux');

    const receipt = await eraseContent('kittiwake', { run: runId }, 'u-admin', db, key);
    expect(receipt.runs).toEqual([expect.objectContaining({ runId, already: false, erased: expect.objectContaining({ Run: 1, ToolCall: 3, RunLabel: 1, RunTag: 1 }) })]);
    expect(checkReceipt(auditor, JSON.parse(JSON.stringify(receipt)))).toBe('ok');
    expect(checkReceipt(auditor, { ...receipt, by: 'someone-else' })).toBe('bad');

    const text = dump(t, provider.name);
    expect(text).not.toContain('Zebediah Quux');
    expect(text).not.toContain('4111 1111 1111 1111');
    const calls = await db.prisma.toolCall.findMany({ where: { runId }, select: { arguments: true, signature: true } });
    expect(calls.every((c) => !c.arguments.includes('SKU-00002') && !c.signature.includes('SKU-00002'))).toBe(true);
    // Another run's content, and the blobs it shares with the erased one, stay.
    expect(text).toContain('Ottoline Vane');
    expect((await getRunOrThrow(kept, db)).run.query).toContain('Ottoline Vane');
    const erased = await getRunOrThrow(runId, db);
    expect(erased.run.query).toBe(ERASED);
    expect(erased.run.finalAnswer).toBe(ERASED);

    const verified = await verifyStoredChain(db.prisma, key);
    expect(verified).toMatchObject({ ok: true, erased: 1 });
    expect(await verifyStoredChain(db.prisma, auditor)).toMatchObject({ ok: true, erased: 1 });
    expect(await unverifiedLabels('kittiwake', runId, db)).toEqual([]);

    // Still detected after the erasure: an edited verdict, a deleted erasure event.
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'pass' } });
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: false, reason: expect.stringContaining(`label ${label.id}`) });
    await db.prisma.runLabel.update({ where: { id: label.id }, data: { verdict: 'fail' } });
    const last = receipt.runs[0]!.evidenceSeq;
    const row = await db.prisma.evidenceEvent.findUniqueOrThrow({ where: { chain_seq: { chain: runId, seq: last } } });
    await db.prisma.evidenceEvent.delete({ where: { chain_seq: { chain: runId, seq: last } } });
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: false, chain: runId, reason: expect.stringMatching(/were deleted/) });
    await db.prisma.evidenceEvent.create({ data: row });
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true });

    // Run again: nothing new is erased or recorded.
    const again = await eraseContent('kittiwake', { run: runId }, 'u-admin', db, key);
    expect(again.runs).toEqual([expect.objectContaining({ runId, already: true, evidenceSeq: last })]);
  });

  test('another tenant\'s run or subject is not found, and nothing is erased', async () => {
    const runId = await saveRun(personalRun('Perpetua Nox'), makeMeta({ tenant: 'kittiwake', sessionId: 'sess-pn' }), db);
    await expect(eraseContent('puffin', { run: runId }, 'u-admin', db, key)).rejects.toBeInstanceOf(NotFoundError);
    await expect(eraseContent('puffin', { subject: 'sess-pn' }, 'u-admin', db, key)).rejects.toBeInstanceOf(NotFoundError);
    await expect(eraseContent('kittiwake', { run: 'no-such-run' }, 'u-admin', db, key)).rejects.toBeInstanceOf(NotFoundError);
    expect((await getRunOrThrow(runId, db)).run.query).toContain('Perpetua Nox');
  });

  test('erases every run of a subject: its session, its imported user.id, the user a run acts for', async () => {
    const a = await saveRun(personalRun('Hesper Lune'), makeMeta({ tenant: 'kittiwake', sessionId: 'sess-hl' }), db);
    const b = await saveRun(personalRun('Hesper Lune'), makeMeta({ tenant: 'kittiwake', traceUserId: 'sess-hl', source: 'imported' }), db);
    const c = await saveRun(personalRun('Hesper Lune'), makeMeta({ tenant: 'kittiwake', createdBy: 'sess-hl' }), db);
    const other = await saveRun(personalRun('Hesper Lune'), makeMeta({ tenant: 'puffin', sessionId: 'sess-hl' }), db);
    const receipt = await eraseContent('kittiwake', { subject: 'sess-hl' }, 'u-admin', db, key);
    expect(receipt.runs.map((r) => r.runId).sort()).toEqual([a, b, c].sort());
    for (const id of [a, b, c]) expect((await getRunOrThrow(id, db)).run.query).toBe(ERASED);
    // The same subject id in another tenant is another tenant's business.
    expect((await getRunOrThrow(other, db)).run.query).toContain('Hesper Lune');
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true });
  });

  test('a failure half-way leaves the content and no erasure; running it again completes it', async () => {
    const runId = await saveRun(personalRun('Ambrose Kell'), makeMeta({ tenant: 'kittiwake' }), db);
    await governedChain(runId);
    const before = await db.prisma.evidenceEvent.count({ where: { chain: runId } });
    // A keyring that cannot sign fails at the evidence append, after every content update of the transaction.
    await expect(eraseContent('kittiwake', { run: runId }, 'u-admin', db, auditor)).rejects.toThrow(/cannot sign/);
    expect((await getRunOrThrow(runId, db)).run.query).toContain('Ambrose Kell');
    expect(await db.prisma.evidenceEvent.count({ where: { chain: runId } })).toBe(before);
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true });
    const receipt = await eraseContent('kittiwake', { run: runId }, 'u-admin', db, key);
    expect(receipt.runs[0]).toMatchObject({ already: false });
    expect(dump(t, provider.name)).not.toContain('Ambrose Kell');
  });
});
