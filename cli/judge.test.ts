/**
 * `judge calibrate`: scores the course calibration set, stores the result in the tenant, and a live
 * judge's second calibration is answered from its recorded calls (the stub counts requests).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { resetBreakers } from '../lib/models/resilience';
import { ProviderStub } from '../lib/models/testing/stub-server';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../lib/stockroom/testing/shared-dataset';
import { migrate } from '../scripts/db-migrate.mjs';
import { runInProcess } from './testing/in-process';

const judgeCli = (args: string[], env: Record<string, string | undefined>) => runInProcess('judge', args, env);

interface CalibrationJson {
  id: string;
  judge: string;
  providerCalls: number;
  cacheHits: number;
  unscored: number;
  overall: { agreement: number; kappa: number; n: number };
}

describe.skipIf(!warnIfNoSharedDataset())('judge calibrate', () => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let stub: ProviderStub;
  const set = path.join(SHARED_DATASET_DIR, 'judge_calibration', 'calibration_v1.jsonl');

  beforeAll(async () => {
    resetBreakers();
    ({ url, drop } = await createTestDatabaseUrl('sqlite'));
    await migrate({ url });
    db = openDatabase(url);
    stub = (await ProviderStub.start('openai')).respondWith(() => ({ calls: [{ id: 'v', name: 'record_verdict', args: { score: 1, passed: true, rationale: 'ok' } }] }));
  });
  afterAll(async () => {
    await stub.close();
    await db.close();
    await drop();
  });

  it('scores the fake judge, prints agreement and kappa, and stores the calibration in the tenant', async () => {
    const r = await judgeCli(['calibrate', '--json'], { DATABASE_URL: url });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as CalibrationJson;
    expect(out).toMatchObject({ judge: 'fake-judge', providerCalls: 0, unscored: 0 });
    const row = await db.prisma.judgeCalibration.findUniqueOrThrow({ where: { id: out.id } });
    expect(row).toMatchObject({ tenant: 'kittiwake', judge: 'fake-judge', agreement: out.overall.agreement, kappa: out.overall.kappa });
    const text = await judgeCli(['calibrate', '--tenant', 'puffin'], { DATABASE_URL: url });
    expect(text.stdout).toMatch(/overall\s+agreement [\d.]+ \(\d+\/\d+\), Cohen's kappa/);
    expect(text.stdout).toContain('in tenant puffin');
  });

  it('records a live judge’s calls: the second calibration with the same judge makes no provider call', async () => {
    const env = { DATABASE_URL: url, OPENAI_API_KEY: 'sk-test-cli-judge' };
    const args = ['calibrate', '--judge', 'openai:gpt-judge', '--judge-base-url', stub.baseURL, '--set', set, '--json'];
    const first = JSON.parse((await judgeCli(args, env)).stdout) as CalibrationJson;
    const requests = stub.requests.length;
    expect(first.providerCalls).toBe(requests);
    expect(requests).toBeGreaterThan(0);
    const second = JSON.parse((await judgeCli(args, env)).stdout) as CalibrationJson;
    expect(stub.requests.length).toBe(requests);
    expect(second).toMatchObject({ providerCalls: 0, overall: first.overall });
    expect(second.cacheHits).toBe(first.providerCalls + first.cacheHits);
  });

  it('refuses a live judge without its key, naming the variable, and stores nothing', async () => {
    const before = await db.prisma.judgeCalibration.count();
    const r = await judgeCli(['calibrate', '--judge', 'anthropic:claude-x'], { DATABASE_URL: url, ANTHROPIC_API_KEY: undefined });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(await db.prisma.judgeCalibration.count()).toBe(before);
  });
});
