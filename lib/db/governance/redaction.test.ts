/**
 * Redaction at rest (issue 33) on SQLite and PostgreSQL: with a tenant's classes in the policy file, a
 * database dump (sqlite3 .dump, pg_dump) holds none of the values — a card number in the question, an
 * e-mail in a tool result, an IBAN in an imported span's attribute, a secret in a reviewer's comment —
 * and each run lists what was taken out where. Pseudonymised, the same value of the same subject is the
 * same token in every run and another subject's differs; erasing the subject destroys its key and
 * `audit verify` stays intact. A tenant without redaction is stored as it came.
 */
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { checkReceipt } from '../../governance/erasure';
import { evidenceKey } from '../../governance/evidence-key';
import { keyringOf, publicKeyring, signingKeyring, TEST_EVIDENCE_KEY } from '../../governance/evidence-signing';
import { agentTreeSpans, otlpDocument } from '../../otel/testing/agent-traces';
import { importSpanRecords } from '../../otel/import/import-traces';
import { readOtlpJsonText } from '../../otel/import/read-otlp';
import { eraseContent } from './erasure';
import { NotFoundError } from '../core/errors';
import { verifyStoredChain } from './governance-evidence';
import { addRunLabel, labelsOfRun } from '../review/labels';
import { storeAnswerSoFar, storeToolProgress } from '../runs/run-progress';
import { getRunOrThrow, getRunSummary } from '../runs/runs-read';
import { saveRun } from '../runs/runs-write';
import { storeRunSoFar } from '../../runs/store';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { type TestDatabase } from '../testing/test-databases';
import { describeOnDatabases } from '../testing/on-databases';

const { privateKey } = generateKeyPairSync('ed25519');
// The process's own key signs what a store records by itself (a tenant's redaction classes changing):
// verified beside the test's key, as a rotated deployment's older key is.
const processKeys = [...keyringOf(evidenceKey()).publicKeys.values()];
const key = signingKeyring(privateKey, processKeys, TEST_EVIDENCE_KEY as Buffer);
const auditor = publicKeyring([createPublicKey(privateKey), ...processKeys]);
const reviewer = { id: 'u-rev', name: 'Rita' };

const CARD = '4111 1111 1111 1111';
const EMAIL = 'hesper.lune@example.org';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const SECRET = 'AKIAIOSFODNN7EXAMPLE';
const ALL = ['card', 'iban', 'email', 'phone', 'secret'];

const policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-redaction-'));
const policyFile = path.join(policyDir, 'policy.json');
fs.writeFileSync(
  policyFile,
  JSON.stringify({
    schemaVersion: 1,
    approvalTtlSeconds: 60,
    tenants: {
      kittiwake: { redaction: { classes: ALL, pseudonymise: true } },
      puffin: { redaction: { classes: ALL, patterns: [{ name: 'order_ref', regex: 'ORD-\\d{6}' }] } },
    },
    tools: {},
  }),
);
const previous = process.env.STOCKROOM_POLICY_FILE;

/** A run with a card number in its question and an e-mail address in a tool result. */
function personalRun() {
  return makeRun({ query: `Card ${CARD} was charged twice, order ORD-424242: why?`, payload: { items: [{ sku: 'SKU-1', contact: EMAIL }] } });
}

function dump(t: TestDatabase, provider: string): string {
  if (provider === 'sqlite') return execFileSync('sqlite3', [t.url.replace(/^file:/, ''), '.dump'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return execFileSync('pg_dump', ['--data-only', t.url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

const digitsOf = (s: string) => s.replace(/\D/g, '');
const tokenOf = (text: string, cls: string) => new RegExp(`⟨${cls}:[0-9a-f]{12}⟩`).exec(text)?.[0];

beforeAll(() => {
  process.env.STOCKROOM_POLICY_FILE = policyFile;
});
afterAll(() => {
  if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
  else process.env.STOCKROOM_POLICY_FILE = previous;
  fs.rmSync(policyDir, { recursive: true, force: true });
});

describeOnDatabases('redaction at rest on $name', ({ provider, test, db, t }) => {
  test('keeps a card in the question, an e-mail in a tool result, an IBAN in a span and a secret in a comment out of the dump', async () => {
    const runId = await saveRun(personalRun(), makeMeta({ tenant: 'puffin' }), db);
    await addRunLabel('puffin', { runId, step: null, verdict: 'fail', category: null, score: null, comment: `leaked key ${SECRET} in the logs`, by: reviewer }, db, key);
    const spans = agentTreeSpans(1, 5).map((s) =>
      s.parent === null ? { ...s, attributes: { ...s.attributes, 'user.id': 'imp-user-7' } } : s.name.startsWith('execute_tool') ? { ...s, attributes: { ...s.attributes, 'gen_ai.tool.call.result': JSON.stringify({ refund_to: IBAN }) } } : s,
    );
    const imported = await importSpanRecords(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'iban-trace', spans }]))), { tenant: 'puffin', db });
    const importedRun = imported.runs[0]!.id;

    const text = dump(t, provider.name);
    for (const value of [CARD, digitsOf(CARD), EMAIL, IBAN, IBAN.replace(/ /g, ''), SECRET, 'ORD-424242']) expect(text).not.toContain(value);
    expect(text).toContain('[REDACTED:card]');
    // The imported trace's subject id is kept (erasure finds its runs by it).
    expect(text).toContain('imp-user-7');

    const stored = await getRunOrThrow(runId, db);
    expect(stored.run.query).toBe('Card [REDACTED:card] was charged twice, order [REDACTED:order_ref]: why?');
    const summary = (await getRunSummary(runId, db))!;
    expect(summary.redactions).toEqual(
      expect.arrayContaining([
        { class: 'card', count: 1, where: 'query' },
        { class: 'order_ref', count: 1, where: 'query' },
        { class: 'email', count: 1, where: 'tool result at step 1' },
        // A reviewer's comment is listed on its run like the run's own content.
        { class: 'secret', count: 1, where: 'label comment' },
      ]),
    );
    expect((await labelsOfRun('puffin', runId, db))[0]!.comment).toBe('leaked key [REDACTED:secret] in the logs');
    const importedSummary = (await getRunSummary(importedRun, db))!;
    expect(importedSummary.redactions.map((r) => r.class)).toContain('iban');
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true });
  });

  test('pseudonymises: one token per value and subject, another subject\'s differs; erasing the subject destroys its key', async () => {
    const a1 = await saveRun(personalRun(), makeMeta({ tenant: 'kittiwake', createdBy: 'u-hesper' }), db);
    const a2 = await saveRun(personalRun(), makeMeta({ tenant: 'kittiwake', sessionId: 'sess-9', createdBy: 'u-hesper' }), db);
    const b = await saveRun(personalRun(), makeMeta({ tenant: 'kittiwake', createdBy: 'u-other' }), db);
    const query = async (id: string) => (await getRunOrThrow(id, db)).run.query;
    const [q1, q2, qb] = [await query(a1), await query(a2), await query(b)];
    const card = tokenOf(q1, 'card');
    expect(card).toBeDefined();
    expect(tokenOf(q2, 'card')).toBe(card);
    expect(tokenOf(qb, 'card')).toBeDefined();
    expect(tokenOf(qb, 'card')).not.toBe(card);
    // The e-mail in the tool result: the same token in both of the subject's runs.
    const email = (id: string) => getRunOrThrow(id, db).then((r) => tokenOf(JSON.stringify(r.run.trajectory), 'email'));
    expect(await email(a1)).toBeDefined();
    expect(await email(a2)).toBe(await email(a1));
    expect(await email(b)).not.toBe(await email(a1));
    const text = dump(t, provider.name);
    for (const value of [CARD, digitsOf(CARD), EMAIL]) expect(text).not.toContain(value);
    // Keys are stored sealed, one per subject.
    expect((await db.prisma.pseudonymKey.findMany({ where: { tenant: 'kittiwake' } })).map((k) => k.subject).sort()).toEqual(['u-hesper', 'u-other']);

    const receipt = await eraseContent('kittiwake', { subject: 'u-hesper' }, 'u-admin', db, key);
    expect(receipt.pseudonymKey).toBe('destroyed');
    expect(receipt.runs.map((r) => r.runId).sort()).toEqual([a1, a2].sort());
    expect(checkReceipt(auditor, JSON.parse(JSON.stringify(receipt)))).toBe('ok');
    expect(checkReceipt(auditor, { ...receipt, pseudonymKey: 'none' })).toBe('bad');
    expect(await db.prisma.pseudonymKey.findUnique({ where: { tenant_subject: { tenant: 'kittiwake', subject: 'u-hesper' } } })).toBeNull();
    expect(await db.prisma.pseudonymKey.findUnique({ where: { tenant_subject: { tenant: 'kittiwake', subject: 'u-other' } } })).not.toBeNull();
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true, erased: 2 });

    // A new run of the subject gets a new key: its tokens cannot be linked to the erased ones.
    const later = await saveRun(personalRun(), makeMeta({ tenant: 'kittiwake', createdBy: 'u-hesper' }), db);
    expect(tokenOf(await query(later), 'card')).not.toBe(card);
  });

  test('a subject whose runs were erased one by one still has its key destroyed by erasing the subject', async () => {
    const runId = await saveRun(personalRun(), makeMeta({ tenant: 'kittiwake', createdBy: 'u-single' }), db);
    await eraseContent('kittiwake', { run: runId }, 'u-admin', db, key);
    // Erasing a run keeps the subject's key (its other runs use it).
    expect(await db.prisma.pseudonymKey.count({ where: { tenant: 'kittiwake', subject: 'u-single' } })).toBe(1);
    const receipt = await eraseContent('kittiwake', { subject: 'u-single' }, 'u-admin', db, key);
    expect(receipt).toMatchObject({ runs: [], pseudonymKey: 'destroyed' });
    expect(await db.prisma.pseudonymKey.count({ where: { tenant: 'kittiwake', subject: 'u-single' } })).toBe(0);
    await expect(eraseContent('kittiwake', { subject: 'u-single' }, 'u-admin', db, key)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('a running run\'s tool progress message is redacted like its content', async () => {
    const runId = await saveRun({ ...personalRun(), status: 'running' }, makeMeta({ tenant: 'puffin' }), db);
    await storeToolProgress(runId, { step: 1, toolUseId: 'tu_1', name: 'list_catalogue', progress: 1, total: 2, message: `mailing ${EMAIL}` }, db);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { toolProgress: true } });
    expect(row.toolProgress).toContain('mailing [REDACTED:email]');
    expect(row.toolProgress).not.toContain(EMAIL);
  });

  test("a running run's streamed answer, stored while it forms, is redacted like its content", async () => {
    const runId = await saveRun({ ...personalRun(), status: 'running' }, makeMeta({ tenant: 'puffin' }), db);
    await storeAnswerSoFar(runId, { step: 99, text: `I will write to ${EMAIL}` }, db);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { answerSoFar: true } });
    expect(row.answerSoFar).toContain('write to [REDACTED:email]');
    expect(row.answerSoFar).not.toContain(EMAIL);
  });

  test("a reviewer's label on a running live run stays when its next step is stored, with its comment's redactions", async () => {
    const meta = makeMeta({ tenant: 'puffin', id: `live-${provider.name}` }) as ReturnType<typeof makeMeta> & { id: string };
    await storeRunSoFar({ ...makeRun({ rounds: 1, query: `Card ${CARD}?` }), status: 'running' }, meta, db);
    const label = await addRunLabel('puffin', { runId: meta.id, step: null, verdict: 'fail', category: null, score: null, comment: `leaked key ${SECRET}`, by: reviewer }, db, key);
    await storeRunSoFar({ ...makeRun({ rounds: 2, query: `Card ${CARD}?` }), status: 'running' }, meta, db);
    const last = makeRun({ rounds: 3, query: `Card ${CARD}?` });
    await storeRunSoFar(last, meta, db);

    expect((await labelsOfRun('puffin', meta.id, db)).map((l) => l.id)).toEqual([label.id]);
    const summary = (await getRunSummary(meta.id, db))!;
    expect(summary.steps).toBe(last.steps);
    expect(summary.redactions).toEqual(expect.arrayContaining([{ class: 'card', count: 1, where: 'query' }, { class: 'secret', count: 1, where: 'label comment' }]));
    expect(await verifyStoredChain(db.prisma, key)).toMatchObject({ ok: true });
  });

  test('a tenant without redaction stores its content as it came', async () => {
    const runId = await saveRun(personalRun(), makeMeta({ tenant: 'tern' }), db);
    const stored = await getRunOrThrow(runId, db);
    expect(stored.run.query).toContain(CARD);
    expect((await getRunSummary(runId, db))!.redactions).toEqual([]);
    expect(await db.prisma.pseudonymKey.count({ where: { tenant: 'tern' } })).toBe(0);
  });
});
