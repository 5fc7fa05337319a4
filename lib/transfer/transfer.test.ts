/** Run files, suite JSONL and the runs CSV against a real (temp SQLite) database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/core/client';
import { saveRun, saveRuns } from '../db/runs/runs-write';
import { createSuiteRun } from '../db/suites/suites';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { exportRunFile, runsCsv, suiteJsonl } from './export-runs';
import { csvCell } from './runs-csv';
import { detectFileKind, parseRunFile, RUN_FILE_SCHEMA } from './run-file';

const sqlite = (await testProviders()).find((p) => p.name === 'sqlite')!;
let t: TestDatabase;
let db: Database;
beforeAll(async () => {
  t = await sqlite.create();
  db = t.db;
});
afterAll(() => t.drop());

const collect = async (lines: AsyncIterable<string>) => {
  let out = '';
  for await (const l of lines) out += l;
  return out;
};

describe('run transfer files', () => {
  it('writes a run file that parses back to the stored run, with secrets in the config redacted', async () => {
    const run = makeRun({ runId: 'file-1', rounds: 2 });
    const id = await saveRun(run, makeMeta({ config: { maxSteps: 8, apiKey: 'sk-live-0123456789abcdefghij', provider: { api_key: 'x' } } }), db);
    const file = await exportRunFile(id, 'kittiwake', db);
    await expect(exportRunFile(id, 'globex', db)).rejects.toThrow(/does not exist|not found|run/);
    expect(file.schema).toBe(RUN_FILE_SCHEMA);
    expect(Object.keys(file)[0]).toBe('schema');
    expect(parseRunFile(JSON.parse(JSON.stringify(file)), '').run).toEqual(run);
    expect(JSON.stringify(file)).not.toContain('sk-live');
    expect(file.meta.config).toMatchObject({ maxSteps: 8, apiKey: '[REDACTED]', provider: { api_key: '[REDACTED]' } });
    expect(detectFileKind(JSON.stringify(file).slice(0, 100))).toBe('run');
    expect(detectFileKind('{"resourceSpans": []}')).toBe('otlp');
  });

  it('names the field a broken run file gets wrong', () => {
    expect(() => parseRunFile({ schema: RUN_FILE_SCHEMA, id: 'x', exportedAt: 'now', meta: {}, run: {} }, 'line 2: ')).toThrow(/^line 2: meta\.datasetName: /);
    expect(() => parseRunFile({ schema: 'other/v9' }, '')).toThrow(/schema: .*stockroom\.run\/v1/);
  });

  it('exports a suite as a header line and one run per line', async () => {
    const suiteRunId = await createSuiteRun({ kind: 'eval', config: {}, datasetName: 'fixture', datasetHash: 'h', total: 3 }, db);
    await saveRuns([1, 2, 3].map((i) => ({ run: makeRun({ runId: `s-${i}`, caseId: `C${i}`, startedAt: `2026-01-0${i}T00:00:00.000Z` }), meta: makeMeta({ suiteRunId }) })), db);
    const lines = (await collect(await suiteJsonl(suiteRunId, 'kittiwake', db))).trim().split('\n').map((l) => JSON.parse(l) as { schema: string; run?: { runId: string } });
    expect(lines[0]).toMatchObject({ schema: 'stockroom.suite/v1', runs: 3 });
    expect(lines.slice(1).map((l) => l.run?.runId)).toEqual(['s-1', 's-2', 's-3']);
  });

  it('downloads the runs table as CSV under the current filters only', async () => {
    await saveRun(makeRun({ runId: 'csv-imported', query: '=HYPERLINK("http://evil")' }), makeMeta({ source: 'imported' }), db);
    const csv = await collect(runsCsv({ tenant: 'kittiwake', source: 'imported' }, undefined, db));
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toMatch(/^id,startedAt,source,datasetName,/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(',imported,');
    expect(rows[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const all = (await collect(runsCsv({}, undefined, db))).trim().split('\r\n');
    expect(all.length).toBeGreaterThan(rows.length);
  });

  it('escapes CSV cells per RFC 4180 and defuses formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
  });
});
