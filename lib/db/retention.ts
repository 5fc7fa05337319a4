import 'server-only';
/**
 * The retention schedule (issue 33): what each tenant's policy says to keep, applied in batches.
 *
 *   runs.harness / runs.imported   finished runs outside suites, older than N days (their start)
 *   suites                         whole finished suites older than N days, their runs with them
 *   otlpRows                       an imported trace's raw OTLP spans and logs, N days after its last
 *                                  span, once its run is built
 *   judgeCache                     the judge's cached calls older than N days
 * and for every tenant alike: expired sign-in sessions and sign-in throttle windows long over.
 *
 * Runs go with all their rows (the schema cascades) and the blobs no other run uses. Each batch of
 * removed runs is one transaction that also appends a `retention` tombstone to the global evidence
 * chain: every run's id with its own chain's head digest, the policy version, when. The runs'
 * evidence chains stay, so `audit verify` stays intact and counts the runs removed. A batch is small
 * (RUNS_PER_BATCH) so no transaction holds the database for long; the sweep runs batches until its
 * time budget is spent and the next sweep goes on.
 */
import { currentPolicy, evidenceBody, evidenceKey, tenantRetention, type EvidenceKey, type LoadedPolicy } from '../governance';
import type { RetentionPolicy } from '../governance';
import { BLOB_PRUNE_LOCK } from './bulk-insert';
import { getDb, type Database } from './client';
import { Prisma as Sql } from './generated/sqlite/client';
import { appendEvidenceIn, withEvidenceTx } from './governance-evidence';
import { CONVERSATION_TAIL } from './otlp-store';

const DAY_MS = 86_400_000;
/**
 * Runs removed per transaction (with their tombstone). SQLite has one writer and, in the embedded
 * server, shares the process with the pages: smaller transactions, and a turn for them in between.
 */
export const RUNS_PER_BATCH = { sqlite: 250, postgres: 500 } as const;
const yieldTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
/** Raw OTLP traces cleared per statement batch. */
const TRACES_PER_BATCH = 500;
/** Sign-in throttle windows are minutes long; a day-old window is long over. */
const THROTTLE_KEEP_MS = DAY_MS;

/** What one class of data is, and how much of it goes or stays. */
export interface RetentionLine {
  tenant: string | null;
  /** `runs.harness`, `runs.imported`, `suites`, `otlpRows`, `judgeCache`, `sessions`, `signInThrottle`. */
  what: string;
  /** The rule (e.g. "older than 30 days"), or "kept" when the policy names none. */
  rule: string;
  goes: number;
  stays: number;
}

export interface RetentionReport {
  policyVersion: string;
  dryRun: boolean;
  lines: RetentionLine[];
  /** False when the time budget ran out first (the next sweep goes on). */
  complete: boolean;
}

const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);
const olderThan = (days: number) => (days === 0 ? 'at once' : `older than ${days} day${days === 1 ? '' : 's'}`);

/** Tenants to apply: the one asked for, or every tenant the policy gives a schedule. */
function tenantsOf(policy: LoadedPolicy, only?: string): Array<[string, RetentionPolicy | undefined]> {
  if (only !== undefined) return [[only, tenantRetention(policy.document, only)]];
  return Object.keys(policy.document.tenants).map((t) => [t, tenantRetention(policy.document, t)]);
}

/** The finished runs outside suites of `tenant` and `source` started before `before`, oldest first. */
function runsDue(db: Database, tenant: string, source: 'harness' | 'imported', before: Date | null, take?: number) {
  return db.prisma.run.findMany({
    where: { tenant, source, suiteRunId: null, status: 'finished', ...(before ? { startedAt: { lt: before } } : { id: { in: [] } }) },
    select: { id: true },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    take,
  });
}

/**
 * Removes runs `ids` (their rows cascade), the blobs only they used, and appends one `retention`
 * tombstone listing them: one transaction, so a kill leaves the runs or the runs gone with their
 * tombstone, never one without the other.
 */
async function removeRuns(db: Database, key: EvidenceKey, ids: readonly string[], what: string, policy: LoadedPolicy, at: string, suiteIds: readonly string[] = []): Promise<number> {
  if (ids.length === 0 && suiteIds.length === 0) return 0;
  return withEvidenceTx(db.prisma, async (tx) => {
    if (db.provider === 'postgres') await tx.$executeRaw`SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtext(${BLOB_PRUNE_LOCK}))) AS l`;
    const heads = ids.length ? await tx.evidenceChain.findMany({ where: { chain: { in: [...ids] } }, select: { chain: true, hash: true } }) : [];
    const headOf = new Map(heads.map((h) => [h.chain, h.hash]));
    const hashes = ids.length ? (await tx.runBlobRef.findMany({ where: { runId: { in: [...ids] } }, select: { hash: true }, distinct: ['hash'] })).map((r) => r.hash) : [];
    const gone = ids.length ? (await tx.run.deleteMany({ where: { id: { in: [...ids] } } })).count : 0;
    if (suiteIds.length) await tx.suiteRun.deleteMany({ where: { id: { in: [...suiteIds] } } });
    for (let i = 0; i < hashes.length; i += 500) {
      const chunk = hashes.slice(i, i + 500);
      await tx.$executeRaw`DELETE FROM "Blob" WHERE "hash" IN (${Sql.join(chunk)}) AND NOT EXISTS (SELECT 1 FROM "RunBlobRef" r WHERE r."hash" = "Blob"."hash") AND NOT EXISTS (SELECT 1 FROM "ToolCall" t WHERE t."resultHash" = "Blob"."hash") AND NOT EXISTS (SELECT 1 FROM "RunMessage" m WHERE m."hash" = "Blob"."hash")`;
    }
    await appendEvidenceIn(
      tx,
      key,
      evidenceBody({
        kind: 'retention',
        at,
        policyVersion: policy.version,
        detail: `${gone} run(s) removed by the retention schedule: ${what}${suiteIds.length ? ` (${suiteIds.length} suite(s))` : ''}`,
        removed: ids.map((runId) => ({ runId, chainHead: headOf.get(runId) ?? null })),
      }),
    );
    return gone;
  });
}

/**
 * Applies (or with `dryRun`, only counts) the schedule of `policy` for `tenant` (every tenant the
 * policy names when absent) at `now`, for at most `budgetMs` of removal work.
 */
export async function applyRetention(
  policy: LoadedPolicy,
  options: { tenant?: string; dryRun?: boolean; now?: Date; budgetMs?: number; db?: Database; key?: EvidenceKey } = {},
): Promise<RetentionReport> {
  const db = options.db ?? getDb();
  const now = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const deadline = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const key = dryRun ? null : (options.key ?? evidenceKey());
  const at = now.toISOString();
  const lines: RetentionLine[] = [];
  let complete = true;
  const p = db.prisma;

  for (const [tenant, schedule] of tenantsOf(policy, options.tenant)) {
    for (const source of ['harness', 'imported'] as const) {
      const days = schedule?.runs?.[source];
      const before = days === undefined ? null : cutoff(now, days);
      const all = await p.run.count({ where: { tenant, source, suiteRunId: null } });
      let goes = before ? await p.run.count({ where: { tenant, source, suiteRunId: null, status: 'finished', startedAt: { lt: before } } }) : 0;
      if (!dryRun && before) {
        let removed = 0;
        for (;;) {
          if (Date.now() > deadline) {
            complete = false;
            break;
          }
          const batch = (await runsDue(db, tenant, source, before, RUNS_PER_BATCH[db.provider])).map((r) => r.id);
          if (batch.length === 0) break;
          removed += await removeRuns(db, key!, batch, `runs.${source} ${olderThan(days!)}`, policy, at);
          await yieldTurn();
        }
        goes = removed;
      }
      lines.push({ tenant, what: `runs.${source}`, rule: days === undefined ? 'kept' : olderThan(days), goes, stays: all - goes });
    }

    {
      const days = schedule?.suites;
      const where = { tenant, status: { in: ['finished', 'failed', 'cancelled'] } };
      const all = await p.suiteRun.count({ where: { tenant } });
      let goes = days === undefined ? 0 : await p.suiteRun.count({ where: { ...where, createdAt: { lt: cutoff(now, days) } } });
      if (!dryRun && days !== undefined) {
        let removed = 0;
        while (complete) {
          if (Date.now() > deadline) {
            complete = false;
            break;
          }
          const suite = await p.suiteRun.findFirst({ where: { ...where, createdAt: { lt: cutoff(now, days) } }, select: { id: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
          if (!suite) break;
          const runs = (await p.run.findMany({ where: { suiteRunId: suite.id }, select: { id: true } })).map((r) => r.id);
          // A big suite goes in batches of runs; the suite row with the last one.
          const per = RUNS_PER_BATCH[db.provider];
          for (let i = 0; i < runs.length; i += per) {
            const last = i + per >= runs.length;
            await removeRuns(db, key!, runs.slice(i, i + per), `suites ${olderThan(days)}`, policy, at, last ? [suite.id] : []);
            await yieldTurn();
          }
          if (runs.length === 0) await removeRuns(db, key!, [], `suites ${olderThan(days)}`, policy, at, [suite.id]);
          removed += 1;
        }
        goes = removed;
      }
      lines.push({ tenant, what: 'suites', rule: days === undefined ? 'kept' : olderThan(days), goes, stays: all - goes });
    }

    {
      const days = schedule?.otlpRows;
      const built = { tenant, runId: { not: null } };
      const all = await p.otlpTrace.count({ where: { tenant } });
      const dueWhere = days === undefined ? null : { ...built, lastSpanAt: { lt: cutoff(now, days) } };
      // Only traces that still hold raw rows count as going.
      let goes = dueWhere ? await p.otlpTrace.count({ where: { ...dueWhere, spanCount: { gt: 0 } } }) : 0;
      if (!dryRun && dueWhere) {
        let cleared = 0;
        for (;;) {
          if (Date.now() > deadline) {
            complete = false;
            break;
          }
          const traces = await p.otlpTrace.findMany({ where: { ...dueWhere, spanCount: { gt: 0 } }, select: { traceId: true }, take: TRACES_PER_BATCH });
          if (traces.length === 0) break;
          const ids = traces.map((t) => t.traceId);
          await p.$transaction([
            p.otlpSpan.deleteMany({ where: { tenant, traceId: { in: ids } } }),
            // A conversation's tail (a digest, no content) stays: a later call of the conversation still joins its run.
            p.otlpLog.deleteMany({ where: { tenant, traceId: { in: ids }, name: { not: CONVERSATION_TAIL } } }),
            // The trace row stays (its run, and that it was received): it holds no raw spans any more.
            p.otlpTrace.updateMany({ where: { tenant, traceId: { in: ids } }, data: { spanCount: 0 } }),
          ]);
          cleared += ids.length;
        }
        goes = cleared;
      }
      lines.push({ tenant, what: 'otlpRows', rule: days === undefined ? 'kept' : `${olderThan(days)} after the last span, once the run is built`, goes, stays: all - goes });
    }

    {
      const days = schedule?.judgeCache;
      const all = await p.judgeCall.count({ where: { tenant } });
      const where = days === undefined ? null : { tenant, createdAt: { lt: cutoff(now, days) } };
      const goes = where ? (dryRun ? await p.judgeCall.count({ where }) : (await p.judgeCall.deleteMany({ where })).count) : 0;
      lines.push({ tenant, what: 'judgeCache', rule: days === undefined ? 'kept' : olderThan(days), goes, stays: all - goes });
    }
  }

  // Every tenant alike: sign-in state nobody can use any more.
  {
    const where = { expiresAt: { lt: now } };
    const all = await p.session.count();
    const goes = dryRun ? await p.session.count({ where }) : (await p.session.deleteMany({ where })).count;
    lines.push({ tenant: null, what: 'sessions', rule: 'expired', goes, stays: all - goes });
  }
  {
    const where = { windowStartMs: { lt: BigInt(now.getTime() - THROTTLE_KEEP_MS) } };
    const all = await p.signInThrottle.count();
    const goes = dryRun ? await p.signInThrottle.count({ where }) : (await p.signInThrottle.deleteMany({ where })).count;
    lines.push({ tenant: null, what: 'signInThrottle', rule: 'windows over for a day', goes, stays: all - goes });
  }
  return { policyVersion: policy.version, dryRun, lines, complete };
}

/** Removal work one sweep does at most; the next sweep goes on where it stopped. */
const SWEEP_BUDGET_MS = 5_000;
let sweepProblem: string | null = null;

/** The sweep's part (the job engine's and the embedded server's alike): a few seconds of the current policy's schedule. */
export async function sweepRetention(now: Date = new Date(), db?: Database): Promise<RetentionReport | null> {
  let policy: LoadedPolicy;
  try {
    policy = currentPolicy();
  } catch (err) {
    // A policy that does not load is refused everywhere else too; said once, not every sweep.
    const problem = err instanceof Error ? err.message : String(err);
    if (problem !== sweepProblem) console.error(`stockroom: retention skipped: ${problem}`);
    sweepProblem = problem;
    return null;
  }
  sweepProblem = null;
  return applyRetention(policy, { now, budgetMs: SWEEP_BUDGET_MS, db });
}
