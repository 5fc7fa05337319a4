/**
 * Unfinished suites enqueued again: their stored cases are skipped, the rest run. The in-process
 * queue does this at every server start (it forgets its jobs when the process stops); a PostgreSQL
 * worker does it at its start as a reconciliation (keyed jobs already queued add nothing).
 */
import { getDb, type Database } from '../db/core';
import { failSuiteRun, unfinishedSuites } from '../db/suites';
import { SuiteJobSchema, type JobQueue } from './types';

/** Enqueues every queued or running suite again; returns how many. A suite without a job spec (from before jobs) is failed, saying so. */
export async function recoverUnfinishedSuites(queue: JobQueue, db: Database = getDb()): Promise<number> {
  const rows = await unfinishedSuites(db);
  let n = 0;
  for (const row of rows) {
    const spec = row.jobSpec ? SuiteJobSchema.safeParse(JSON.parse(row.jobSpec)) : null;
    if (!spec?.success) {
      await failSuiteRun(row.id, 'interrupted: this suite was queued before suites ran as jobs and cannot be resumed', db);
      continue;
    }
    await queue.enqueue('suite', spec.data, { key: `suite:${row.id}` });
    n += 1;
  }
  return n;
}
