/**
 * `run|eval|matrix --save --tenant T --as EMAIL` stores what the CLI ran where the dashboard shows
 * it, attributed to the user, who must hold operator in T; every refusal writes nothing. Commands run
 * in-process (their output captured) against a throw-away SQLite and PostgreSQL database; one run is
 * spawned as `npm run stockroom` runs it, to prove the real entry point stores too.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { migrate } from '../scripts/db-migrate.mjs';
import { runInProcess } from './testing/in-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'correct horse battery staple';

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command in this process with `env` set; returns its exit code, stdout, and the usage error's message. */
const inProcess = (name: 'run' | 'eval' | 'matrix', args: string[], env: Record<string, string>) => runInProcess(name, args, env);

const providers = await testProviders();

describe.each(providers)('--save on $name', (provider) => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let tmp: string;
  const ids: Record<string, string> = {};
  const counts = async () => ({ runs: await db.prisma.run.count(), suites: await db.prisma.suiteRun.count() });

  beforeAll(async () => {
    if (provider.skipReason) return;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-cli-save-'));
    ({ url, drop } = await createTestDatabaseUrl(provider.name));
    await migrate({ url });
    db = openDatabase(url);
    const { upsertUser } = await import('../lib/auth/users');
    ids.operator = await upsertUser(db, { email: 'ci@kittiwake.test', password: PASSWORD, roles: ['operator'], tenant: 'kittiwake' });
    ids.reviewer = await upsertUser(db, { email: 'reviewer@kittiwake.test', password: PASSWORD, roles: ['reviewer'], tenant: 'kittiwake' });
    ids.puffin = await upsertUser(db, { email: 'ci@puffin.test', password: PASSWORD, roles: ['operator'], tenant: 'puffin' });
  });
  afterAll(async () => {
    if (provider.skipReason) return;
    await db.close();
    await drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(provider.skipReason !== null)('stores a run in the tenant, attributed to the user, and prints its runId', async () => {
    // SQLite: through the real entry point, as `npm run stockroom` runs it; PostgreSQL: in-process.
    const run = provider.name === 'sqlite' ? async (...a: Parameters<typeof inProcess>) => cli([a[0], ...a[1]], a[2]) : inProcess;
    const r = await run('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'kittiwake', '--as', 'CI@kittiwake.test', '--json'], { DATABASE_URL: url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { runId: string; harnessRunId: string; terminationReason: string };
    expect(out.runId).not.toBe(out.harnessRunId);
    expect(await db.prisma.run.findUniqueOrThrow({ where: { id: out.runId } })).toMatchObject({
      tenant: 'kittiwake',
      createdBy: ids.operator,
      governed: false,
      harnessRunId: out.harnessRunId,
      terminationReason: out.terminationReason,
    });
  });

  it.skipIf(provider.skipReason !== null)('stores a run with its --tag values, and refuses a bad tag or a tag without --save, writing nothing', async () => {
    const r = await inProcess('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--tag', ' nightly ', '--tag', 'ci', '--json'], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    expect((await db.prisma.runTag.findMany({ where: { runId }, orderBy: { tag: 'asc' } })).map((t) => [t.tenant, t.tag])).toEqual([['kittiwake', 'ci'], ['kittiwake', 'nightly']]);
    const before = await counts();
    const bad = await inProcess('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--tag', 'x'.repeat(65)], { DATABASE_URL: url });
    expect([bad.code, bad.stderr]).toEqual([2, `--tag: the tag '${'x'.repeat(65)}' is longer than 64 characters`]);
    const unsaved = await inProcess('run', ['Where is SKU-2001 stored?', '--tag', 'ci'], { DATABASE_URL: url });
    expect([unsaved.code, unsaved.stderr]).toEqual([2, '--tag needs --save: tags are stored with the run']);
    expect(await counts()).toEqual(before);
  });

  it.skipIf(provider.skipReason !== null)('stores an eval as a suite with every case run linked, and prints suiteId and runIds', async () => {
    const r = await inProcess('eval', ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--json'], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { suiteId: string; runIds: Record<string, string>; cases: { id: string }[] };
    expect(Object.keys(out.runIds)).toEqual(out.cases.map((c) => c.id));
    expect(await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: out.suiteId } })).toMatchObject({ kind: 'eval', status: 'done', tenant: 'kittiwake', createdBy: ids.operator });
    const stored = await db.prisma.run.findMany({ where: { suiteRunId: out.suiteId }, select: { id: true, tenant: true, createdBy: true } });
    expect(stored.map((s) => s.id).sort()).toEqual(Object.values(out.runIds).sort());
    expect(new Set(stored.map((s) => `${s.tenant}/${s.createdBy}`))).toEqual(new Set([`kittiwake/${ids.operator}`]));
    expect(await db.prisma.suiteCase.count({ where: { suiteRunId: out.suiteId, runId: { not: null } } })).toBe(out.cases.length);
  });

  it.skipIf(provider.skipReason !== null || provider.name !== 'sqlite')('stores a matrix as one suite with a setting per weakness, and prints suiteId and runIds', async () => {
    const r = await inProcess('matrix', ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--json'], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { suiteId: string; runIds: Record<string, Record<string, string>>; none: unknown };
    expect(out.none).toBeDefined();
    const suite = await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: out.suiteId }, include: { settings: true } });
    expect(suite).toMatchObject({ kind: 'matrix', status: 'done', tenant: 'kittiwake', createdBy: ids.operator });
    expect(suite.settings.map((s) => s.setting).sort()).toEqual(Object.keys(out.runIds).sort());
    const total = Object.values(out.runIds).reduce((n, byCase) => n + Object.keys(byCase).length, 0);
    expect(await db.prisma.run.count({ where: { suiteRunId: out.suiteId, tenant: 'kittiwake' } })).toBe(total);
  });

  it.skipIf(provider.skipReason !== null)('stores eval --epochs 3 as three runs per case, each suite case row keyed by its epoch', async () => {
    const golden = path.join(tmp, 'three.jsonl');
    fs.writeFileSync(golden, fs.readFileSync(path.join(ROOT, 'data/golden/stockroom_golden_own_v1.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 3).join('\n') + '\n');
    const r = await inProcess('eval', ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--json', '--golden', golden, '--model', 'fake-noisy', '--epochs', '3'], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { suiteId: string; runIds: Record<string, string[]> };
    expect(Object.values(out.runIds).map((ids) => ids.length)).toEqual([3, 3, 3]);
    const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId: out.suiteId }, orderBy: [{ caseId: 'asc' }, { epoch: 'asc' }] });
    expect(rows).toHaveLength(9);
    for (const [caseId, ids] of Object.entries(out.runIds)) {
      expect(rows.filter((c) => c.caseId === caseId).map((c) => [c.epoch, c.runId])).toEqual(ids.map((id, e) => [e, id]));
    }
    expect((await db.prisma.run.findMany({ where: { suiteRunId: out.suiteId }, select: { epoch: true } })).map((x) => x.epoch).sort()).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });

  it.skipIf(provider.skipReason !== null || provider.name !== 'sqlite')('refuses, writing nothing, a user without operator in the tenant, an unknown user, another tenant’s dataset and missing flags', async () => {
    const before = await counts();
    const reviewer = await inProcess('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'kittiwake', '--as', 'reviewer@kittiwake.test'], { DATABASE_URL: url });
    expect(reviewer.code).toBe(2);
    expect(reviewer.stderr).toContain('--as reviewer@kittiwake.test: no dashboard user with the operator role in tenant kittiwake; nothing was stored');
    const unknown = await inProcess('eval', ['--save', '--tenant', 'kittiwake', '--as', 'nobody@kittiwake.test'], { DATABASE_URL: url });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no dashboard user with the operator role in tenant kittiwake');
    const foreign = await inProcess('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'puffin', '--as', 'ci@puffin.test'], { DATABASE_URL: url });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/--tenant puffin: the dataset .* does not belong to tenant puffin; nothing was stored/);
    expect((await inProcess('run', ['x', '--save', '--tenant', 'kittiwake'], { DATABASE_URL: url })).stderr).toContain('--save needs --as EMAIL');
    expect((await inProcess('run', ['x', '--save', '--as', 'ci@kittiwake.test'], { DATABASE_URL: url })).stderr).toContain('--save needs --tenant T');
    expect((await inProcess('run', ['x', '--tenant', 'kittiwake'], { DATABASE_URL: url })).stderr).toContain('--tenant and --as only apply with --save');
    expect((await inProcess('run', ['x', '--save', '--tenant', 'Not A Tenant', '--as', 'ci@kittiwake.test'], { DATABASE_URL: url })).stderr).toContain('--tenant: a tenant name is');
    expect(await counts()).toEqual(before);
  });

  it.skipIf(provider.skipReason !== null || provider.name !== 'sqlite')('stores in the dataset’s tenant when the deployment assigns it, and refuses when the tenant’s governance is mandatory', async () => {
    const assigned = await inProcess('run', ['Where is SKU-2001 stored?', '--save', '--tenant', 'puffin', '--as', 'ci@puffin.test', '--json'], {
      DATABASE_URL: url,
      STOCKROOM_DATASET_TENANTS: 'bundled=puffin',
    });
    expect(assigned.code, assigned.stderr).toBe(0);
    expect(await db.prisma.run.findUniqueOrThrow({ where: { id: (JSON.parse(assigned.stdout) as { runId: string }).runId } })).toMatchObject({ tenant: 'puffin', createdBy: ids.puffin });

    const policy = JSON.parse(fs.readFileSync(path.join(ROOT, 'config/policy.json'), 'utf8')) as object;
    const file = path.join(tmp, 'policy.json');
    fs.writeFileSync(file, JSON.stringify({ ...policy, tenants: { kittiwake: { governance: 'mandatory' } } }));
    const before = await counts();
    const refused = await inProcess('matrix', ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test'], { DATABASE_URL: url, STOCKROOM_POLICY_FILE: file });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Governance is mandatory in this tenant');
    expect(await counts()).toEqual(before);
  });
});
