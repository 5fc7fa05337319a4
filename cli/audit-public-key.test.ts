/**
 * Public-key evidence end to end (issue 33), spawned as `npm run stockroom` runs it, on SQLite and
 * PostgreSQL: `audit public-key` prints the key; `audit verify --public-key FILE` verifies the
 * database with it alone in a process that has no secret, and still sees a reviewer's label edited in
 * the database; `audit export` writes a run's bundle only for a reviewer of the run's tenant, and the
 * bundle verifies in a process with neither a secret nor a database.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { PrismaEvidenceSink } from '../lib/db/governance/governance-evidence';
import { addRunLabel } from '../lib/db/review/labels';
import { saveRun } from '../lib/db/runs/runs-write';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { evidenceBody } from '../lib/governance/evidence';
import { loadSigningKeys } from '../lib/governance/evidence-public-key';
import { signingKeyring } from '../lib/governance/evidence-signing';
import { migrate } from '../scripts/db-migrate.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECRET = 'audit-public-key-test-secret-0123456789abcdef';
const PASSWORD = 'correct horse battery staple';

function cli(args: string[], env: Record<string, string | undefined>) {
  const clean = { ...process.env };
  delete clean.STOCKROOM_EVIDENCE_KEY;
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', ...args], { cwd: ROOT, env: { ...clean, STOCKROOM_EVIDENCE_WITNESS: 'off', ...env }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const providers = await testProviders();

describe.each(providers)('public-key evidence on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;
  let dir: string;
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let server: Record<string, string>;
  let nothing: Record<string, string>;
  let runId: string;
  let labelId: string;

  beforeAll(async () => {
    if (provider.skipReason) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-audit-pk-'));
    ({ url, drop } = await createTestDatabaseUrl(provider.name));
    await migrate({ url });
    db = openDatabase(url);
    // The server's keys; the auditor's process is given none of them.
    server = { DATABASE_URL: url, STOCKROOM_EVIDENCE_KEY: SECRET, STOCKROOM_EVIDENCE_SIGNING_KEY_FILE: path.join(dir, 'signing.pem') };
    nothing = { STOCKROOM_EVIDENCE_KEY: '', STOCKROOM_EVIDENCE_KEY_FILE: path.join(dir, 'absent-secret'), STOCKROOM_EVIDENCE_SIGNING_KEY_FILE: path.join(dir, 'absent.pem') };
    const keys = loadSigningKeys({ env: server, create: true })!;
    const ring = signingKeyring(keys.privateKey, keys.retired, Buffer.from(SECRET, 'utf8'));
    runId = await saveRun(makeRun(), makeMeta({ tenant: 'kittiwake' }), db);
    const sink = new PrismaEvidenceSink(db.prisma, ring, null);
    for (const kind of ['run_started', 'policy_decision', 'effect'] as const) await sink.append(evidenceBody({ kind, at: new Date().toISOString(), runId, decision: 'allow' }));
    labelId = (await addRunLabel('kittiwake', { runId, step: null, verdict: 'pass', category: null, score: null, comment: '', by: { id: 'u-rev', name: 'Rita' } }, db, ring)).id;
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'rita@kittiwake.test', password: PASSWORD, roles: ['reviewer'], tenant: 'kittiwake' });
    await upsertUser(db, { email: 'viewer@kittiwake.test', password: PASSWORD, roles: ['viewer'], tenant: 'kittiwake' });
    await upsertUser(db, { email: 'rita@puffin.test', password: PASSWORD, roles: ['reviewer'], tenant: 'puffin' });
  });
  afterAll(async () => {
    if (provider.skipReason) return;
    await db.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('prints the public key; the database verifies with it alone, in a process that holds no secret', () => {
    const printed = cli(['audit', 'public-key'], server);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    expect(printed.stdout).not.toMatch(/PRIVATE/);
    fs.writeFileSync(path.join(dir, 'public.pem'), printed.stdout);
    const r = cli(['audit', 'verify', '--public-key', path.join(dir, 'public.pem')], { DATABASE_URL: url, ...nothing });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/evidence intact \(4 events in 1 signed chains.*verified with the public key alone/);
    // Without --public-key and without the secret it refuses, as before.
    expect(cli(['audit', 'verify'], { DATABASE_URL: url, ...nothing }).code).toBe(2);
  });

  test('exports a run\'s bundle for a reviewer of its tenant only; the bundle verifies with neither a secret nor a database', () => {
    const out = path.join(dir, 'bundle.json');
    const stranger = cli(['audit', 'export', '--run', runId, '--tenant', 'puffin', '--as', 'rita@puffin.test', '--out', out], server);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain(`run ${runId} not found in tenant puffin`);
    const viewer = cli(['audit', 'export', '--run', runId, '--tenant', 'kittiwake', '--as', 'viewer@kittiwake.test', '--out', out], server);
    expect(viewer.code).not.toBe(0);
    expect(viewer.stderr).toContain('no dashboard user with the reviewer role in tenant kittiwake');
    expect(fs.existsSync(out)).toBe(false);
    const ok = cli(['audit', 'export', '--run', runId, '--tenant', 'kittiwake', '--as', 'rita@kittiwake.test', '--out', out], server);
    expect(ok.code).toBe(0);
    const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as { events: { body: { kind: string } }[] };
    expect(bundle.events.map((e) => e.body.kind)).toEqual(['run_started', 'policy_decision', 'effect', 'label']);
    const verified = cli(['audit', 'verify', '--bundle', out, '--public-key', path.join(dir, 'public.pem')], { DATABASE_URL: 'file:/nonexistent/none.db', ...nothing });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/evidence intact \(4 events in 1 signed chains.*bundle verified with the public key alone/);
    const forged = structuredClone(bundle) as { events: { body: { kind: string; decision?: string } }[] };
    forged.events[1]!.body.decision = 'deny';
    fs.writeFileSync(path.join(dir, 'forged.json'), JSON.stringify(forged));
    const broken = cli(['audit', 'verify', '--bundle', path.join(dir, 'forged.json'), '--public-key', path.join(dir, 'public.pem')], nothing);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`BROKEN at chain ${runId} event 2: event 2 was edited`));
  });

  test('a reviewer\'s label edited in the database fails audit verify with the public key, naming the label', async () => {
    await db.prisma.$executeRawUnsafe(`UPDATE "RunLabel" SET "verdict" = 'fail' WHERE "id" = '${labelId}'`);
    const r = cli(['audit', 'verify', '--public-key', path.join(dir, 'public.pem')], { DATABASE_URL: url, ...nothing });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`label ${labelId} of run ${runId}`);
    await db.prisma.$executeRawUnsafe(`UPDATE "RunLabel" SET "verdict" = 'pass' WHERE "id" = '${labelId}'`);
    expect(cli(['audit', 'verify'], server).code).toBe(0);
  });
});
