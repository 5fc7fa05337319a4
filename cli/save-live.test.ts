/**
 * `run --save` with a live model writes the run as it goes (issue 40, "follow a run live"): on main a
 * CLI run was stored only at its end, so a 25 s call showed nothing on the dashboard until it was
 * over. Here the real entry point runs against the offline model server (each call slowed down) and
 * a throw-away database: the run's row exists, `running`, with its steps growing, while the process
 * still runs; its end is the same record the CLI prints; and the dashboard's Stop reaches it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { startModelServer, type ModelServer } from '../lib/models/model-server/server';
import { defaultDatasetDir, loadDataset } from '../lib/stockroom/dataset/load-dataset';
import { requestStop } from '../lib/runs/stop-runs';
import { migrate } from '../scripts/db-migrate.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '', code: null as number | null };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((out.code = code))));
  return { child, out, exited };
}

const providers = await testProviders();

describe.each(providers)('run --save with a live model on $name', (provider) => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let server: ModelServer;
  const live = () => ['--model', 'openai-compatible:stockroom-fake', '--model-base-url', server.url];
  const save = ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test'];

  beforeAll(async () => {
    if (provider.skipReason) return;
    ({ url, drop } = await createTestDatabaseUrl(provider.name));
    await migrate({ url });
    db = openDatabase(url);
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'ci@kittiwake.test', password: 'correct horse battery staple', roles: ['operator'], tenant: 'kittiwake' });
    // Slow enough that the test sees the run between its steps, whatever the machine's load.
    server = await startModelServer({ dataset: loadDataset(defaultDatasetDir()), latencyMs: 1_500 });
  });
  afterAll(async () => {
    if (provider.skipReason) return;
    await server.close();
    await db.close();
    await drop();
  });

  it.skipIf(provider.skipReason !== null)('stores each step while the process runs, then the same record it prints', async () => {
    const cli = startCli(['run', 'Where is SKU-2001 stored?', ...live(), ...save, '--json'], { DATABASE_URL: url });
    // The row is there, running, before the process has finished.
    const running = await vi.waitFor(
      async () => {
        const row = await db.prisma.run.findFirst({ where: { tenant: 'kittiwake', status: 'running', steps: { gte: 1 } } });
        expect(row).not.toBeNull();
        return row!;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(cli.out.code).toBeNull();
    expect(running).toMatchObject({ tenant: 'kittiwake', source: 'harness', terminationReason: expect.any(String) });

    expect(await cli.exited).toBe(0);
    const printed = JSON.parse(cli.out.stdout) as { runId: string; steps: number; terminationReason: string; finalAnswer: string };
    expect(printed.runId).toBe(running.id);
    const stored = await db.prisma.run.findUniqueOrThrow({ where: { id: printed.runId } });
    expect(stored).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED', finalAnswer: printed.finalAnswer, answerSoFar: null, toolProgress: null });
    expect(stored.steps).toBeGreaterThan(running.steps);
    expect(await db.prisma.run.count({ where: { tenant: 'kittiwake' } })).toBe(1);
  }, 120_000);

  it.skipIf(provider.skipReason !== null)('a stop asked for on the dashboard ends the CLI run cancelled, keeping its steps', async () => {
    const before = new Set((await db.prisma.run.findMany({ select: { id: true } })).map((r) => r.id));
    const cli = startCli(['run', 'Where is SKU-2001 stored?', ...live(), ...save], { DATABASE_URL: url });
    const row = await vi.waitFor(
      async () => {
        const r = await db.prisma.run.findFirst({ where: { status: 'running', id: { notIn: [...before] } } });
        expect(r).not.toBeNull();
        return r!;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(await requestStop(row.id, db)).toBe(true);
    // Exit 130, as for Ctrl-C: the run was cancelled, not completed.
    expect(await cli.exited).toBe(130);
    expect(cli.out.stdout).toContain('(cancelled)');
    expect(await db.prisma.run.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: 'finished', terminationReason: 'MODEL_ERROR' });
  }, 120_000);
});
