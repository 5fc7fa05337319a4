/**
 * `npm run stockroom -- audit verify` against a real database: intact after governed runs; after
 * the last events of a chain are deleted, a chain is re-hashed after a forgery, or an event's run
 * id column is edited, it exits 1 naming the first bad event; without the key it refuses to guess.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../lib/db/core/client';
import { PrismaEvidenceSink } from '../lib/db/governance/governance-evidence';
import { evidenceBody, eventHash, type EvidenceBody } from '../lib/governance/evidence';

const ROOT = path.resolve(import.meta.dirname, '..');
const KEY = 'audit-cli-test-key-0123456789abcdef0123456789';
let dir: string;
let url: string;
let db: Database;

function audit(env: Record<string, string | undefined> = {}, flags: string[] = []) {
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', 'audit', 'verify', ...flags], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, STOCKROOM_EVIDENCE_KEY: KEY, STOCKROOM_EVIDENCE_KEY_FILE: path.join(dir, 'no-key-file'), STOCKROOM_EVIDENCE_WITNESS: 'off', ...env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-audit-'));
  url = `file:${path.join(dir, 'audit.db')}`;
  await migrate({ url });
  db = openDatabase(url);
  const sink = new PrismaEvidenceSink(db.prisma, Buffer.from(KEY, 'utf8'), null);
  for (const runId of ['run-a', 'run-b']) {
    for (const kind of ['run_started', 'policy_decision', 'effect', 'run_finished'] as const) {
      await sink.append(evidenceBody({ kind, at: new Date().toISOString(), runId, decision: 'allow' }));
    }
  }
});
afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('audit verify', () => {
  it('says intact for an untouched store, and refuses without the key', () => {
    const ok = audit();
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/evidence intact \(8 events in 2 signed chains/);
    const keyless = audit({ STOCKROOM_EVIDENCE_KEY: '' });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(/no evidence key: set STOCKROOM_EVIDENCE_KEY/);
    expect(keyless.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the first missing event when the last rows of a chain are deleted', async () => {
    const rows = await db.prisma.evidenceEvent.findMany({ where: { chain: 'run-b', seq: { gte: 3 } } });
    await db.prisma.evidenceEvent.deleteMany({ where: { chain: 'run-b', seq: { gte: 3 } } });
    const r = audit();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN at chain run-b event 3: events 3–4 of chain run-b were deleted/);
    await db.prisma.evidenceEvent.createMany({ data: rows });
  });

  it('names the forged event when every hash after it was recomputed', async () => {
    const rows = await db.prisma.evidenceEvent.findMany({ where: { chain: 'run-a' }, orderBy: { seq: 'asc' } });
    const head = await db.prisma.evidenceChain.findUniqueOrThrow({ where: { chain: 'run-a' } });
    let prev = rows[0]!.prevHash;
    for (const r of rows) {
      const body = JSON.parse(r.body) as EvidenceBody;
      const forged = r.seq === 2 ? { ...body, decision: 'deny' } : body;
      const hash = eventHash(r.seq, prev, forged);
      await db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: 'run-a', seq: r.seq } }, data: { prevHash: prev, hash, body: JSON.stringify(forged) } });
      prev = hash;
    }
    await db.prisma.evidenceChain.update({ where: { chain: 'run-a' }, data: { hash: prev } });
    const r = audit();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN at chain run-a event 2: event 2 is not signed by the evidence key/);
    await db.prisma.evidenceEvent.deleteMany({ where: { chain: 'run-a' } });
    await db.prisma.evidenceEvent.createMany({ data: rows });
    await db.prisma.evidenceChain.update({ where: { chain: 'run-a' }, data: { hash: head.hash } });
  });

  it('names the event whose run id column was edited', async () => {
    await db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: 'run-b', seq: 1 } }, data: { runId: 'run-z' } });
    const r = audit();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN at chain run-b event 1: event 1's run id column \(run-z\) differs from its signed body \(run-b\)/);
  });
});

describe('audit verify --witness (issue 22 §5)', () => {
  it('sees a whole database restored from an older snapshot only through the witness kept outside it', async () => {
    const wdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-witness-cli-'));
    const file = path.join(wdir, 'stockroom.db');
    const witness = path.join(wdir, 'elsewhere', 'evidence-witness.json');
    const wurl = `file:${file}`;
    try {
      await migrate({ url: wurl });
      const wdb = openDatabase(wurl);
      const sink = new PrismaEvidenceSink(wdb.prisma, Buffer.from(KEY, 'utf8'), witness);
      const append = (runId: string) => sink.append(evidenceBody({ kind: 'run_started', at: new Date().toISOString(), runId }));
      await append('run-1');
      await wdb.close();
      const snapshot = `${file}.snapshot`;
      fs.copyFileSync(file, snapshot);
      const again = openDatabase(wurl);
      await new PrismaEvidenceSink(again.prisma, Buffer.from(KEY, 'utf8'), witness).append(evidenceBody({ kind: 'run_started', at: new Date().toISOString(), runId: 'run-2' }));
      await again.close();

      const fresh = audit({ DATABASE_URL: wurl }, ['--witness', witness]);
      expect(fresh.code).toBe(0);
      expect(fresh.stdout).toMatch(/not older than the witness \(2 chain\(s\)\)/);

      // The database goes back to its snapshot: everything in it agrees with everything else.
      fs.copyFileSync(snapshot, file);
      expect(audit({ DATABASE_URL: wurl }).code).toBe(0);
      const rolledBack = audit({ DATABASE_URL: wurl }, ['--witness', witness]);
      expect(rolledBack.code).toBe(1);
      expect(rolledBack.stderr).toMatch(/BROKEN at chain \(witness\): the database's anchor registers 1 chain\(s\) but the witness outside it registered 2/);

      const missing = audit({ DATABASE_URL: wurl }, ['--witness', path.join(wdir, 'none.json')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/no evidence witness at/);
    } finally {
      fs.rmSync(wdir, { recursive: true, force: true });
    }
  });
});
