/**
 * The retention schedule (issue 33) on SQLite and PostgreSQL: a dry run counts what would go and
 * removes nothing; applied, it removes exactly the finished runs of the tenant and source the policy
 * names that are older than the period (not newer ones, not another source's, not another tenant's,
 * not a paused one), leaves a `retention` tombstone naming each run with its chain's head digest and
 * the policy version, and `audit verify` stays intact, counts them, and still sees tampering; an
 * imported trace's raw spans go once its run is built, its run stays, and a span sent for it later
 * is refused instead of rebuilding the run from what is left; sessions past their expiry go; a
 * misspelt class is refused when the policy loads, naming it.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { evidenceBody } from '../../governance/evidence';
import { publicKeyring, signingKeyring, TEST_EVIDENCE_KEY } from '../../governance/evidence-signing';
import { parsePolicy } from '../../governance/policy-file';
import { PolicyFileError } from '../../governance/errors';
import { agentTreeSpans, otlpDocument } from '../../otel/testing/agent-traces';
import { readOtlpJsonText } from '../../otel/import/read-otlp';
import { importSpanRecords } from '../../otel/import/import-traces';
import { listEvidence, PrismaEvidenceSink, verifyStoredChain } from '../governance/governance-evidence';
import { applyRetention, sweepRetention } from './retention';
import { saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const { privateKey } = generateKeyPairSync('ed25519');
const key = signingKeyring(privateKey, [], TEST_EVIDENCE_KEY as Buffer);
const auditor = publicKeyring([createPublicKey(privateKey)]);
const NOW = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

/** The tombstone's body with run `runId` struck from its list. */
function struck(body: string, runId: string): string {
  const parsed = JSON.parse(body) as { removed: Array<{ runId: string }> };
  expect(parsed.removed.some((r) => r.runId === runId)).toBe(true);
  return JSON.stringify({ ...parsed, removed: parsed.removed.filter((r) => r.runId !== runId) });
}

function policyOf(retention: object, tenant = 'gannet') {
  return parsePolicy(JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { [tenant]: { retention } }, tools: {} }), 'test-policy.json');
}

describe('the retention schedule in the policy file', () => {
  it('refuses a misspelt class or a period that is not whole days, naming it', () => {
    expect(() => policyOf({ runs: { harnes: 30 } })).toThrow(PolicyFileError);
    expect(() => policyOf({ runs: { harnes: 30 } })).toThrow(/tenants\.gannet\.retention\.runs.*harnes/);
    expect(() => policyOf({ judgecache: 3 })).toThrow(/judgecache/);
    expect(() => policyOf({ otlpRows: 1.5 })).toThrow(/tenants\.gannet\.retention\.otlpRows: a retention period is a whole number of days/);
    expect(policyOf({ runs: { harness: 30 }, otlpRows: 0 }).document.tenants.gannet!.retention).toEqual({ runs: { harness: 30 }, otlpRows: 0 });
  });
});

describeOnDatabases('retention on $name', ({ test, db }) => {
  const save = (tenant: string, startedDaysAgo: number, source: 'harness' | 'imported' = 'harness') => saveRun({ ...makeRun({ rounds: 1 }), startedAt: daysAgo(startedDaysAgo) }, makeMeta({ tenant, source }), db);

  test('removes only the old runs the policy names, leaves a tombstone with each chain’s digest, and audit verify counts them', async () => {
    const old = [await save('gannet', 40), await save('gannet', 31)];
    const governedOld = await save('gannet', 90);
    const recent = await save('gannet', 5);
    const importedOld = await save('gannet', 90, 'imported');
    const otherTenant = await save('puffin', 90);
    const paused = await save('gannet', 90);
    await db.prisma.run.update({ where: { id: paused }, data: { status: 'paused' } });
    const sink = new PrismaEvidenceSink(db.prisma, key, null);
    await sink.append(evidenceBody({ kind: 'policy_decision', at: daysAgo(90), runId: governedOld, decision: 'allow' }));
    const chainHead = (await db.prisma.evidenceChain.findUniqueOrThrow({ where: { chain: governedOld } })).hash;
    const policy = policyOf({ runs: { harness: 30 } });

    const dry = await applyRetention(policy, { tenant: 'gannet', dryRun: true, now: NOW, db, key });
    expect(dry.lines.find((l) => l.what === 'runs.harness')).toMatchObject({ rule: 'older than 30 days', goes: 3, stays: 2 });
    expect(dry.lines.find((l) => l.what === 'runs.imported')).toMatchObject({ rule: 'kept', goes: 0, stays: 1 });
    expect(await db.prisma.run.count()).toBe(7);

    const applied = await applyRetention(policy, { tenant: 'gannet', now: NOW, db, key });
    expect(applied).toMatchObject({ complete: true, policyVersion: policy.version });
    expect(applied.lines.find((l) => l.what === 'runs.harness')).toMatchObject({ goes: 3, stays: 2 });
    const left = new Set((await db.prisma.run.findMany({ select: { id: true } })).map((r) => r.id));
    expect([...left].sort()).toEqual([recent, importedOld, otherTenant, paused].sort());
    // Their rows went with them; the kept runs' rows stayed.
    expect(await db.prisma.modelTurn.count({ where: { runId: { in: [...old, governedOld] } } })).toBe(0);
    expect(await db.prisma.modelTurn.count({ where: { runId: recent } })).toBeGreaterThan(0);

    const tombstones = (await listEvidence(db.prisma)).filter((e) => e.body.kind === 'retention');
    expect(tombstones).toHaveLength(1);
    expect(tombstones[0]!.body).toMatchObject({ policyVersion: policy.version, at: NOW.toISOString(), runId: null });
    expect(tombstones[0]!.body.removed).toEqual(expect.arrayContaining([{ runId: governedOld, chainHead }, { runId: old[0], chainHead: null }, { runId: old[1], chainHead: null }]));
    // The removed run's own chain stays, so the chain still verifies; the count is by policy version.
    expect(await verifyStoredChain(db.prisma, auditor)).toMatchObject({ ok: true, removedByRetention: { [policy.version]: 3 } });

    // Run again: nothing more goes, no second tombstone.
    const again = await applyRetention(policy, { tenant: 'gannet', now: NOW, db, key });
    expect(again.lines.find((l) => l.what === 'runs.harness')).toMatchObject({ goes: 0, stays: 2 });
    expect((await listEvidence(db.prisma)).filter((e) => e.body.kind === 'retention')).toHaveLength(1);

    // A tombstone edited in the database (a run struck from its list) breaks the chain.
    const row = await db.prisma.evidenceEvent.findFirstOrThrow({ where: { chain: 'global', body: { contains: '"kind":"retention"' } } });
    await db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: row.chain, seq: row.seq } }, data: { body: struck(row.body, old[0]!) } });
    expect(await verifyStoredChain(db.prisma, auditor)).toMatchObject({ ok: false });
    await db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: row.chain, seq: row.seq } }, data: { body: row.body } });
    expect(await verifyStoredChain(db.prisma, auditor)).toMatchObject({ ok: true });
  });

  test('an imported trace’s raw spans go once its run is built; its run stays, and a late span is refused rather than rebuild it', async () => {
    const spans = agentTreeSpans(3, 40);
    const imported = await importSpanRecords(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'kept-run', spans: spans.slice(0, -1) }]))), { tenant: 'gannet', db });
    const runId = imported.runs[0]!.id;
    const before = await db.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { modelCallCount: true, toolCallCount: true } });
    expect(await db.prisma.otlpSpan.count({ where: { tenant: 'gannet' } })).toBe(spans.length - 1);
    await db.prisma.otlpTrace.updateMany({ where: { tenant: 'gannet' }, data: { lastSpanAt: new Date(daysAgo(3)) } });

    const report = await applyRetention(policyOf({ otlpRows: 2 }), { tenant: 'gannet', now: NOW, db, key });
    expect(report.lines.find((l) => l.what === 'otlpRows')).toMatchObject({ goes: 1 });
    expect(await db.prisma.otlpSpan.count({ where: { tenant: 'gannet' } })).toBe(0);
    expect(await db.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { modelCallCount: true, toolCallCount: true } })).toEqual(before);

    // The root span arrives late: the run is not rebuilt from that one span.
    const late = await importSpanRecords(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'kept-run', spans: spans.slice(-1) }]))), { tenant: 'gannet', db }).catch((err: unknown) => err);
    expect(await db.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { modelCallCount: true, toolCallCount: true } })).toEqual(before);
    expect(late instanceof Error || (late as { skippedSpans: number }).skippedSpans === 1).toBe(true);
    expect(await db.prisma.otlpSpan.count({ where: { tenant: 'gannet' } })).toBe(0);
  });

  test('the sweep applies the policy file’s schedule, and skips (saying so once) while the file does not load', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-retention-'));
    const file = path.join(dir, 'policy.json');
    const before = process.env.STOCKROOM_POLICY_FILE;
    process.env.STOCKROOM_POLICY_FILE = file;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const old = await save('tern', 400);
      const recent = await save('tern', 1);
      fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { tern: { retention: { runs: { harness: 365 } } } }, tools: {} }));
      const report = await sweepRetention(NOW, db);
      // The sweep removes; it counts nothing else (what stays is read from the table below).
      expect(report?.lines.find((l) => l.tenant === 'tern' && l.what === 'runs.harness')).toMatchObject({ goes: 1, stays: null });
      expect(await db.prisma.run.findUnique({ where: { id: old } })).toBeNull();
      expect(await db.prisma.run.findUnique({ where: { id: recent } })).not.toBeNull();
      fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { tern: { retention: { run: { harness: 1 } } } }, tools: {} }));
      expect(await sweepRetention(NOW, db)).toBeNull();
      expect(await sweepRetention(NOW, db)).toBeNull();
      expect(errors.mock.calls.filter((c) => String(c[0]).includes('retention skipped'))).toHaveLength(1);
      expect(await db.prisma.run.findUnique({ where: { id: recent } })).not.toBeNull();
    } finally {
      errors.mockRestore();
      if (before === undefined) delete process.env.STOCKROOM_POLICY_FILE;
      else process.env.STOCKROOM_POLICY_FILE = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('sessions past their expiry go for every tenant; live ones stay', async () => {
    const user = await db.prisma.user.create({ data: { id: 'u-ret', email: 'ret@example.com', name: 'Ret', emailVerified: true } });
    await db.prisma.session.createMany({
      data: [
        { id: 's-old', token: 't-old', userId: user.id, expiresAt: new Date(daysAgo(1)) },
        { id: 's-live', token: 't-live', userId: user.id, expiresAt: new Date(NOW.getTime() + 3_600_000) },
      ],
    });
    const report = await applyRetention(policyOf({}), { now: NOW, db, key });
    expect(report.lines.find((l) => l.what === 'sessions')).toMatchObject({ goes: 1, stays: 1 });
    expect((await db.prisma.session.findMany({ select: { id: true } })).map((s) => s.id)).toEqual(['s-live']);
  });
});
