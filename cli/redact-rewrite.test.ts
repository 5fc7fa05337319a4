/**
 * `redact --rewrite` (issue 33) on SQLite and PostgreSQL, through the real command in its own
 * process. A tenant stores runs, a reviewer's comment and an imported trace holding a card number, an
 * e-mail address, an IBAN and a secret, then adds those classes to its redaction. The rewrite is
 * sent SIGKILL after its first batch and run again: every batch committed is whole and recorded,
 * the second run completes, a database dump then holds none of the tenant's values — while another
 * tenant's values stay exactly as stored — and `audit verify` is intact, counts the rewritten runs and
 * no run stored before the classes.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { verifyStoredChain } from '../lib/db/governance/governance-evidence';
import { addRunLabel, labelsOfRun, unverifiedLabels } from '../lib/db/review/labels';
import { getRunOrThrow, getRunSummary } from '../lib/db/runs/runs-read';
import { saveRun } from '../lib/db/runs/runs-write';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { serverKeyring, verifierKeyring } from '../lib/governance/evidence-key';
import { importSpanRecords } from '../lib/otel/import/import-traces';
import { readOtlpJsonText } from '../lib/otel/import/read-otlp';
import { agentTreeSpans, otlpDocument } from '../lib/otel/testing/agent-traces';
import { migrate } from '../scripts/db-migrate.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const providers = await testProviders();

const CARD = '4111 1111 1111 1111';
const EMAIL = 'hesper.lune@example.org';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const SECRET = 'AKIAIOSFODNN7EXAMPLE';
/** The puffin tenant's values: none may be left in a dump after the rewrite. */
const PUFFIN_VALUES = [CARD, CARD.replace(/ /g, ''), EMAIL, IBAN, IBAN.replace(/ /g, ''), SECRET];
/** Another tenant's, stored as they came (it keeps nothing out): the rewrite never touches them. */
const TERN_CARD = '5500 0000 0000 0004';
const TERN_EMAIL = 'tern.keeper@example.net';
/** More runs than one batch holds on either database (5 on SQLite, 50 on PostgreSQL). */
const RUNS = 120;

function writePolicy(file: string, puffinClasses: string[] | null) {
  const tenants: Record<string, unknown> = { tern: {} };
  tenants.puffin = puffinClasses ? { redaction: { classes: puffinClasses } } : {};
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants, tools: {} }));
}

function dump(provider: string, url: string): string {
  if (provider === 'sqlite') return execFileSync('sqlite3', [url.replace(/^file:/, ''), '.dump'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return execFileSync('pg_dump', ['--data-only', url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

describe.each(providers)('redact --rewrite on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;
  let dir: string;
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let env: NodeJS.ProcessEnv;
  let policyFile: string;
  const previous = { policy: process.env.STOCKROOM_POLICY_FILE };
  beforeAll(async () => {
    if (provider.skipReason) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-redact-rewrite-'));
    policyFile = path.join(dir, 'policy.json');
    ({ url, drop } = await createTestDatabaseUrl(provider.name));
    await migrate({ url });
    db = openDatabase(url);
    env = { ...process.env, DATABASE_URL: url, STOCKROOM_POLICY_FILE: policyFile, STOCKROOM_EVIDENCE_KEY: 'redact-rewrite-test-secret-0123456789abcdef01', STOCKROOM_EVIDENCE_SIGNING_KEY_FILE: path.join(dir, 'signing.pem'), STOCKROOM_EVIDENCE_WITNESS: 'off' };
    process.env.STOCKROOM_POLICY_FILE = policyFile;
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'admin@puffin.test', password: 'correct horse battery staple', roles: ['admin'], tenant: 'puffin' });
    await upsertUser(db, { email: 'admin@tern.test', password: 'correct horse battery staple', roles: ['admin'], tenant: 'tern' });
  });
  afterAll(async () => {
    if (provider.skipReason) return;
    if (previous.policy === undefined) delete process.env.STOCKROOM_POLICY_FILE;
    else process.env.STOCKROOM_POLICY_FILE = previous.policy;
    await db.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run stockroom -- redact …` in its own process; resolves with its exit code and output. */
  function redact(args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void) {
    const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      onStderr?.(err, child);
    });
    return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, out, err })));
  }

  test('killed after its first batch and run again, rewrites every run, comment and raw row of the tenant, and only of the tenant', async () => {
    writePolicy(policyFile, null);
    const key = serverKeyring(env);
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      ids.push(await saveRun(makeRun({ rounds: 1, query: `Card ${CARD} was charged twice (${i})`, payload: { contact: EMAIL } }), makeMeta({ tenant: 'puffin' }), db));
    }
    const labelled = ids[7]!;
    await addRunLabel('puffin', { runId: labelled, step: null, verdict: 'fail', category: null, score: null, comment: `leaked key ${SECRET} in the logs`, by: { id: 'u-rev', name: 'Rita' } }, db, key);
    const spans = agentTreeSpans(1, 3).map((s) => (s.name.startsWith('execute_tool') ? { ...s, attributes: { ...s.attributes, 'gen_ai.tool.call.result': JSON.stringify({ refund_to: IBAN }) } } : s));
    const imported = (await importSpanRecords(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'iban-trace', spans }]))), { tenant: 'puffin', db })).runs[0]!.id;
    const tern = await saveRun(makeRun({ rounds: 1, query: `Card ${TERN_CARD}?`, payload: { contact: TERN_EMAIL } }), makeMeta({ tenant: 'tern' }), db);
    const ternBefore = JSON.stringify(await getRunOrThrow(tern, db));
    for (const value of [CARD, EMAIL, IBAN, SECRET]) expect(dump(provider.name, url)).toContain(value);

    // The tenant now keeps these classes out: content stored from now on is redacted, what was stored is not.
    writePolicy(policyFile, ['card', 'iban', 'email', 'secret']);
    const dry = await redact(['redact', '--rewrite', '--tenant', 'puffin', '--dry-run', '--json', '--as', 'admin@puffin.test']);
    expect(dry.code, dry.err).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ tenant: 'puffin', dryRun: true, runs: RUNS + 1, classes: ['card', 'email', 'iban', 'secret'] });
    expect(await verifyStoredChain(db.prisma, verifierKeyring(env))).toMatchObject({ ok: true, redactionSince: [{ tenant: 'puffin', storedBefore: RUNS + 1, rewritten: 0 }] });

    // Killed as soon as it reports its first batch.
    const killed = await redact(['redact', '--rewrite', '--tenant', 'puffin', '--as', 'admin@puffin.test'], (text, child) => {
      if (text.includes('rewritten so far')) child.kill('SIGKILL');
    });
    const rewrittenRows = await db.prisma.run.count({ where: { tenant: 'puffin', redactedAt: { not: null } } });
    const events = (await db.prisma.evidenceEvent.findMany({ where: { chain: 'global', body: { contains: '"kind":"redaction_rewrite"' } } })).map((e) => JSON.parse(e.body) as { rewritten: { runId: string }[] });
    console.log(`redact-rewrite on ${provider.name}: killed by ${killed.signal ?? `exit ${killed.code}`} with ${rewrittenRows} of ${RUNS + 1} runs rewritten`);
    // Every committed batch is whole and recorded: the runs marked rewritten are exactly those the events list.
    expect(events.flatMap((e) => e.rewritten.map((r) => r.runId)).length).toBe(rewrittenRows);
    expect(rewrittenRows).toBeGreaterThan(0);
    expect(await verifyStoredChain(db.prisma, verifierKeyring(env))).toMatchObject({ ok: true });

    const again = await redact(['redact', '--rewrite', '--tenant', 'puffin', '--json', '--as', 'admin@puffin.test']);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ runs: RUNS + 1 - rewrittenRows, left: 0 });

    const text = dump(provider.name, url);
    for (const value of PUFFIN_VALUES) expect(text, `the dump still holds ${value}: ${text.split('\n').filter((l) => l.includes(value)).map((l) => l.slice(0, 200)).join('\n')}`).not.toContain(value);
    // Another tenant's content is as it was stored.
    expect(text).toContain(TERN_CARD);
    expect(text).toContain(TERN_EMAIL);
    expect(JSON.stringify(await getRunOrThrow(tern, db))).toBe(ternBefore);

    // Each run lists what went, the comment's too; the label still verifies against its evidence.
    const run = await getRunOrThrow(ids[3]!, db);
    expect(run.run.query).toBe('Card [REDACTED:card] was charged twice (3)');
    expect((await getRunSummary(labelled, db))!.redactions).toEqual(
      expect.arrayContaining([
        { class: 'card', count: 1, where: 'query' },
        { class: 'secret', count: 1, where: 'label comment' },
      ]),
    );
    expect((await labelsOfRun('puffin', labelled, db))[0]!.comment).toBe('leaked key [REDACTED:secret] in the logs');
    expect(await unverifiedLabels('puffin', labelled, db)).toEqual([]);
    expect((await getRunSummary(imported, db))!.redactions.map((r) => r.class)).toContain('iban');

    expect(await verifyStoredChain(db.prisma, verifierKeyring(env))).toMatchObject({ ok: true, redactionSince: [{ tenant: 'puffin', storedBefore: 0, rewritten: RUNS + 1 }] });
    const after = await redact(['redact', '--rewrite', '--tenant', 'puffin', '--dry-run', '--json', '--as', 'admin@puffin.test']);
    expect(JSON.parse(after.out)).toMatchObject({ runs: 0 });
    // Another tenant's admin cannot rewrite puffin, and a tenant that keeps nothing out is told so.
    expect((await redact(['redact', '--rewrite', '--tenant', 'puffin', '--as', 'admin@tern.test'])).code).not.toBe(0);
    const nothing = await redact(['redact', '--rewrite', '--tenant', 'tern', '--as', 'admin@tern.test']);
    expect(nothing.code).toBe(1);
    expect(nothing.err).toContain('tenant tern keeps nothing out of storage');
    // Seven processes, each starting tsx: minutes on a loaded machine.
  }, 300_000);
});
