/**
 * `eval --replay-from SUITE_ID`: a stored live suite is re-run against the current settings from its
 * recorded responses, and each case reports whether it reproduced or DIVERGED (at which step, and
 * what differed). The live suite is recorded through the offline model server; commands run
 * in-process against a throw-away SQLite database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { startModelServer, type ModelServer } from '../lib/models/model-server/server';
import { resetBreakers } from '../lib/models/resilience';
import { defaultDatasetDir, loadDataset } from '../lib/stockroom/dataset/load-dataset';
import { migrate } from '../scripts/db-migrate.mjs';
import { runInProcess } from './testing/in-process';

const evalCli = (args: string[], env: Record<string, string>) => runInProcess('eval', args, env);

interface ReplayJson {
  replay: { suiteId: string; reproduced: number; diverged: number; cases: { caseId: string; status: string; step: number | null; detail: string | null; sourceRunId: string | null }[] };
  cases: { id: string }[];
}

describe('eval --replay-from a stored live suite', () => {
  let server: ModelServer;
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let liveSuite: string;
  let fakeSuite: string;
  let env: Record<string, string>;
  const live = () => ['--model', 'openai-compatible:stockroom-fake', '--model-base-url', server.url];

  beforeAll(async () => {
    resetBreakers();
    server = await startModelServer({ dataset: loadDataset(defaultDatasetDir()) });
    ({ url, drop } = await createTestDatabaseUrl('sqlite'));
    await migrate({ url });
    db = openDatabase(url);
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'ci@kittiwake.test', password: 'correct horse battery staple', roles: ['operator'], tenant: 'kittiwake' });
    env = { DATABASE_URL: url };
    const save = ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--json'];
    const recorded = await evalCli([...live(), ...save], env);
    expect(recorded.code).toBe(0);
    liveSuite = (JSON.parse(recorded.stdout) as { suiteId: string }).suiteId;
    fakeSuite = (JSON.parse((await evalCli(save, env)).stdout) as { suiteId: string }).suiteId;
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await db?.close();
    await drop?.();
  });

  it('with nothing changed reproduces every case from the recording', async () => {
    const r = await evalCli(['--replay-from', liveSuite, '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ReplayJson;
    expect(out.replay.diverged).toBe(0);
    expect(out.replay.reproduced).toBe(out.cases.length);
    expect(out.replay.cases.every((c) => c.sourceRunId !== null)).toBe(true);
  });

  it('with a changed tool description reports every case DIVERGED at its first model call, naming the description', async () => {
    const r = await evalCli(['--replay-from', liveSuite, '--weaknesses', 'ambiguous_tool_desc', '--json'], env);
    const out = JSON.parse(r.stdout) as ReplayJson;
    expect(out.replay.reproduced).toBe(0);
    for (const c of out.replay.cases) {
      expect(c).toMatchObject({ status: 'DIVERGED', step: 1 });
      expect(c.detail).toMatch(/tool \w+ description/);
    }
  });

  it('with a changed tool behaviour (same specs) reproduces the cases it does not touch and diverges later in the others', async () => {
    const r = await evalCli(['--replay-from', liveSuite, '--weaknesses', 'naive_retry', '--json'], env);
    const out = JSON.parse(r.stdout) as ReplayJson;
    const diverged = out.replay.cases.filter((c) => c.status !== 'REPRODUCED');
    expect(diverged.length).toBeGreaterThan(0);
    expect(out.replay.reproduced).toBeGreaterThan(0);
    // The first request is identical (same prompt and tools): they part only after a tool answered differently.
    for (const c of diverged) expect(c.step).toBeGreaterThan(1);
  });

  it('refuses a suite with nothing recorded, an unknown suite, and a setting the suite lacks', async () => {
    expect((await evalCli(['--replay-from', fakeSuite], env)).stderr).toContain('no recorded model exchanges');
    expect((await evalCli(['--replay-from', 'no-such-suite'], env)).stderr).toContain('no such suite');
    expect((await evalCli(['--replay-from', liveSuite, '--replay-setting', 'naive_retry'], env)).stderr).toContain("has no setting 'naive_retry'");
  });
});
