/**
 * Issue 22 §6: `eval --replay-from SUITE` replays the suite's own cases. It used the default golden
 * file and reported every case the suite never ran as DIVERGED, exiting 0. A suite recorded on a few
 * cases now replays exactly those (all reproduced, exit 0); a replay that diverges exits with the
 * DIVERGED code; a golden file without the suite's cases is refused, naming them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { defaultGoldenPath } from '../lib/eval/matrix';
import { startModelServer, type ModelServer } from '../lib/models/model-server/server';
import { resetBreakers } from '../lib/models/resilience';
import { defaultDatasetDir, loadDataset } from '../lib/stockroom/dataset/load-dataset';
import { migrate } from '../scripts/db-migrate.mjs';
import { EXIT_CODES } from './exit-codes';
import { runInProcess } from './testing/in-process';

const evalCli = (args: string[], env: Record<string, string>) => runInProcess('eval', args, env);
const dataset = loadDataset(defaultDatasetDir());

interface ReplayJson {
  replay: { reproduced: number; diverged: number; cases: { caseId: string; status: string }[] };
  cases: { id: string }[];
}

describe('eval --replay-from replays the suite’s own cases', () => {
  let server: ModelServer;
  let db: Database;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let suiteId: string;
  let own: string[];
  let otherGolden: string;

  beforeAll(async () => {
    resetBreakers();
    server = await startModelServer({ dataset });
    const t = await createTestDatabaseUrl('sqlite');
    drop = t.drop;
    await migrate({ url: t.url });
    db = openDatabase(t.url);
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'ci@kittiwake.test', password: 'correct horse battery staple', roles: ['operator'], tenant: 'kittiwake' });
    env = { DATABASE_URL: t.url };
    // A golden file of three of the default file's cases, and one of three others.
    const lines = readFileSync(defaultGoldenPath(dataset), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stockroom-replay-'));
    const subset = path.join(dir, 'subset.jsonl');
    writeFileSync(subset, lines.slice(0, 3).join('\n') + '\n');
    otherGolden = path.join(dir, 'other.jsonl');
    writeFileSync(otherGolden, lines.slice(3, 6).join('\n') + '\n');
    own = lines.slice(0, 3).map((l) => (JSON.parse(l) as { id: string }).id);
    const live = ['--model', 'openai-compatible:stockroom-fake', '--model-base-url', server.url];
    const recorded = await evalCli([...live, '--golden', subset, '--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--json'], env);
    expect(recorded.code).toBe(0);
    suiteId = (JSON.parse(recorded.stdout) as { suiteId: string }).suiteId;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await db?.close();
    await drop?.();
  });

  it('runs only the suite’s cases (from the default golden file), all reproduced, exit 0', async () => {
    const r = await evalCli(['--replay-from', suiteId, '--json'], env);
    const out = JSON.parse(r.stdout) as ReplayJson;
    expect(out.cases.map((c) => c.id)).toEqual(own);
    expect(out.replay).toMatchObject({ reproduced: own.length, diverged: 0 });
    expect(r.code).toBe(0);
  });

  it('exits with the DIVERGED code when a case does not reproduce', async () => {
    const r = await evalCli(['--replay-from', suiteId, '--weaknesses', 'ambiguous_tool_desc', '--json'], env);
    expect((JSON.parse(r.stdout) as ReplayJson).replay.diverged).toBe(own.length);
    expect(r.code).toBe(EXIT_CODES.DIVERGED);
  });

  it('refuses a golden file that lacks the suite’s cases, naming them, before anything runs', async () => {
    const r = await evalCli(['--replay-from', suiteId, '--golden', otherGolden, '--json'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(own[0]!);
    expect(r.stderr).toContain('--golden');
  });
});
