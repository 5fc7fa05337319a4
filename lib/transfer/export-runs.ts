import 'server-only';
/**
 * Stored runs out as files: one run (JSON), a suite (JSONL, streamed run by run) and the runs table
 * under the current filters (CSV, streamed page by page). Used by the dashboard's download routes
 * and `npm run stockroom -- export`.
 */
import { getRunOrThrow } from '../db/runs';
import { InvalidInputError } from '../db/core';
import { listRuns, MAX_RUN_PAGE, RUN_SORT_KEYS, type RunSort } from '../db/runs';
import { parseRunFilters, type RunFilters } from '../db/runs';
import { getSuiteRunOrThrow } from '../db/suites';
import { getDb, type Database } from '../db/core';
import { requireRunInTenant, requireSuiteInTenant } from '../db/governance';
import { csvHeader, csvRow } from './runs-csv';
import { SUITE_FILE_SCHEMA, toRunFile, type RunFile, type SuiteFileHeader } from './run-file';

/** One run of `tenant` as a run file; another tenant's run answers as not found. */
export async function exportRunFile(id: string, tenant: string, db: Database = getDb(), now = new Date()): Promise<RunFile> {
  await requireRunInTenant(id, tenant, db);
  return toRunFile(await getRunOrThrow(id, db), now);
}

async function* runIds(filters: RunFilters, db: Database, sort?: RunSort): AsyncGenerator<string> {
  let cursor: string | null = null;
  do {
    const page = await listRuns({ filters, sort, cursor, limit: MAX_RUN_PAGE }, db);
    for (const item of page.items) yield item.id;
    cursor = page.nextCursor;
  } while (cursor);
}

/** The suite as JSONL lines (header first); throws NotFoundError before the first line for an unknown suite. */
export async function suiteJsonl(suiteId: string, tenant: string, db: Database = getDb(), now = new Date()): Promise<AsyncGenerator<string>> {
  await requireSuiteInTenant(suiteId, tenant, db);
  const suite = await getSuiteRunOrThrow(suiteId, db);
  const ids: string[] = [];
  for await (const id of runIds({ suiteRunId: suiteId, tenant }, db, { key: 'startedAt', dir: 'asc' })) ids.push(id);
  const header: SuiteFileHeader = {
    schema: SUITE_FILE_SCHEMA,
    exportedAt: now.toISOString(),
    suite: { id: suite.id, kind: suite.kind, status: suite.status, datasetName: suite.datasetName, datasetHash: suite.datasetHash, createdAt: suite.createdAt, settings: suite.settings },
    runs: ids.length,
  };
  return (async function* lines() {
    yield JSON.stringify(header) + '\n';
    // One run in memory at a time.
    for (const id of ids) yield JSON.stringify(toRunFile(await getRunOrThrow(id, db), now)) + '\n';
  })();
}

/**
 * The runs table under `filters` (which carry the caller's tenant) as CSV lines (header first), newest
 * first like the table. The filters and sort are checked here, before the first line: a bad one is an
 * InvalidInputError naming it (a 400), never a stream that breaks after its 200 was sent.
 */
export function runsCsv(filters: RunFilters, sort: RunSort | undefined, db: Database = getDb()): AsyncGenerator<string> {
  const checked = parseRunFilters(filters);
  if (sort && !RUN_SORT_KEYS.includes(sort.key)) throw new InvalidInputError('sort', `unknown sort key '${String(sort.key)}'`);
  return (async function* lines() {
    yield csvHeader();
    let cursor: string | null = null;
    do {
      const page = await listRuns({ filters: checked, sort, cursor, limit: MAX_RUN_PAGE }, db);
      for (const item of page.items) yield csvRow(item);
      cursor = page.nextCursor;
    } while (cursor);
  })();
}

/** A stream of text lines as a web ReadableStream (for a download Response). */
export function linesToStream(lines: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = lines[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}
