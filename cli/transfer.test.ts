/**
 * The CLI's trace and run transfer: `import` of an OTLP/JSON file, `export` of a run and a suite
 * and their import back, refusals that store nothing, and `run` sending its spans to a collector
 * before it exits.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { countRuns } from '../lib/db/runs/runs-list';
import { getRunOrThrow } from '../lib/db/runs/runs-read';
import { saveRuns } from '../lib/db/runs/runs-write';
import { createSuiteRun } from '../lib/db/suites/suites';
import { makeMeta, makeRun } from '../lib/db/testing/run-fixtures';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { readOtlpProtobuf } from '../lib/otel/import/read-otlp';
import { startOtlpTestReceiver } from '../lib/otel/testing/otlp-test-receiver';
import { migrate } from '../scripts/db-migrate.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'lib/otel/testing/fixtures/genai-python-agent.json');
let url = '';
let drop: () => Promise<void>;
let db: Database;
let dir = '';

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: url, ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like cli(), without blocking this process (the test collector answers from it). */
function cliAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  const t = await createTestDatabaseUrl('sqlite');
  url = t.url;
  drop = t.drop;
  await migrate({ url });
  db = openDatabase(url);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-transfer-'));
});

afterAll(async () => {
  await db.close();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('stockroom import / export', () => {
  it('imports an OTLP/JSON trace file as an imported run of the --tenant', async () => {
    const r = cli(['import', FIXTURE, '--tenant', 'acme', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { kind: string; result: { runs: Array<{ id: string; modelCalls: number; toolCalls: number }> } };
    expect(out.kind).toBe('otlp');
    expect(out.result.runs).toMatchObject([{ modelCalls: 2, toolCalls: 2 }]);
    const stored = await getRunOrThrow(out.result.runs[0]!.id, db);
    expect(stored.meta).toMatchObject({ source: 'imported', config: { tenant: 'acme', format: 'genai' } });
  });

  it('imports one trace split over two files (root last) as one run, and the same files again as nothing new', async () => {
    const doc = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ spans: Array<{ parentSpanId?: string; traceId: string }> }> }> };
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => ({ ...s, traceId: 'abcabcabcabcabcabcabcabcabcabc12' }));
    const write = (name: string, list: unknown[]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: doc.resourceSpans[0]!.resource, scopeSpans: [{ spans: list }] }] }));
      return file;
    };
    const children = write('children.json', spans.filter((s) => s.parentSpanId));
    const root = write('root.json', spans.filter((s) => !s.parentSpanId));
    const before = (await countRuns({}, {}, db)).count;
    const r = cli(['import', children, root, '--tenant', 'acme', '--json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Array<{ result: { runs: Array<{ id: string; status: string }> } }>;
    expect(out[0]!.result.runs).toMatchObject([{ status: 'running' }]);
    expect(out[1]!.result.runs).toMatchObject([{ id: out[0]!.result.runs[0]!.id, status: 'finished' }]);
    const again = cli(['import', children, root, '--tenant', 'acme']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 run(s) built from 4 span(s) for tenant acme; 4 span(s) already stored');
    expect((await countRuns({}, {}, db)).count).toBe(before + 1);
    expect((await getRunOrThrow(out[1]!.result.runs[0]!.id, db)).run.usage.modelCalls).toBe(2);
  });

  it('exports a run as stockroom.run/v1 JSON and a suite as JSONL, and imports both back as the same runs', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'fixture', datasetHash: 'h', total: 2 }, db);
    const [a, b] = await saveRuns(
      [
        { run: makeRun({ runId: 'ex-1', caseId: 'C1', rounds: 2 }), meta: makeMeta({ suiteRunId }) },
        { run: makeRun({ runId: 'ex-2', caseId: 'C2', rounds: 1, terminationReason: 'MAX_STEPS' }), meta: makeMeta({ suiteRunId }) },
      ],
      db,
    );
    const runFile = path.join(dir, 'run.json');
    expect(cli(['export', a!, '--tenant', 'kittiwake', '--out', runFile]).code).toBe(0);
    const exported = JSON.parse(fs.readFileSync(runFile, 'utf8')) as { schema: string; id: string };
    expect(exported).toMatchObject({ schema: 'stockroom.run/v1', id: a });
    const back = cli(['import', runFile, '--tenant', 'acme', '--json']);
    expect(back.code).toBe(0);
    const [reId] = (JSON.parse(back.stdout) as { ids: string[] }).ids;
    expect((await getRunOrThrow(reId!, db)).run).toEqual((await getRunOrThrow(a!, db)).run);
    // Another tenant's run answers as not found, and no file is written.
    const elsewhere = cli(['export', a!, '--tenant', 'globex', '--out', path.join(dir, 'no.json')]);
    expect(elsewhere.code).toBe(2);
    expect(fs.existsSync(path.join(dir, 'no.json'))).toBe(false);

    const suiteFile = path.join(dir, 'suite.jsonl');
    expect(cli(['export', '--suite', suiteRunId, '--tenant', 'kittiwake', '--out', suiteFile]).code).toBe(0);
    const lines = fs.readFileSync(suiteFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ schema: 'stockroom.suite/v1', runs: 2, suite: { id: suiteRunId } });
    const suiteBack = cli(['import', suiteFile, '--tenant', 'acme', '--json']);
    expect(suiteBack.code).toBe(0);
    const ids = (JSON.parse(suiteBack.stdout) as { ids: string[] }).ids;
    const runIds = await Promise.all(ids.map(async (id) => (await getRunOrThrow(id, db)).run.runId));
    expect(runIds.sort()).toEqual(['ex-1', 'ex-2']);
    void b;
  });

  it('refuses a malformed file, naming the field, and a missing --tenant, storing nothing', async () => {
    const before = (await countRuns({}, {}, db)).count;
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ schema: 'stockroom.run/v1', id: 'x', exportedAt: 'now', meta: {}, run: {} }));
    const r = cli(['import', bad, '--tenant', 'acme']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/stockroom import: meta\.datasetName: .*stockroom\.run\/v1 run file/);
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, fs.readFileSync(FIXTURE, 'utf8').replace('"5b8efff798038103d269b633813fc60c"', '"nothex"'));
    const b = cli(['import', broken, '--tenant', 'acme']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('resourceSpans[0].scopeSpans[0].spans[0].traceId: must be 32 hex characters');
    const noTenant = cli(['import', FIXTURE]);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toContain('--tenant is required');
    const stranger = cli(['import', FIXTURE, '--tenant', 'acme', '--as', 'nobody@example.test']);
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('no dashboard user with the operator role in tenant acme; nothing was stored');
    expect((await countRuns({}, {}, db)).count).toBe(before);
  });
});

describe('stockroom run with an OTLP endpoint', () => {
  it('sends the run’s spans before the process exits, and still succeeds when the collector is gone', async () => {
    const receiver = await startOtlpTestReceiver();
    try {
      const r = await cliAsync(['run', 'Where is SKU-2001 stored?'], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'cli-test' });
      expect(r.code).toBe(0);
      expect(receiver.requests.length).toBeGreaterThan(0);
      const spans = receiver.requests.flatMap((q) => readOtlpProtobuf(q.body));
      expect(spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')?.serviceName).toBe('cli-test');
    } finally {
      await receiver.close();
    }
    const gone = await cliAsync(['run', 'Where is SKU-2001 stored?'], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('termination: COMPLETED');
    expect(gone.stderr).toContain('OpenTelemetry: could not export traces');
  });
});
