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
import { currentPolicy, evidenceBody, evidenceKey, tenantRetention, type EvidenceKey, type LoadedPolicy } from '../../governance';
import type { RetentionPolicy } from '../../governance';
import { getDb, type Database } from '../core';
import { appendEvidenceIn, withEvidenceTx } from '../governance';
import { CONVERSATION_TAIL } from './otlp-store';
import { deleteRunsIn } from '../runs';

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
  /** What is left of the class (null: not counted, as the sweep does not). */
  stays: number | null;
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
function runsDue(db: Database, tenant: string, source: 'harness' | 'imported', before: Date, take: number) {
  return db.prisma.run.findMany({
    where: { tenant, source, suiteRunId: null, status: 'finished', startedAt: { lt: before } },
    select: { id: true },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    take,
  });
}

/**
 * Removes runs `ids` and suites `suiteIds` (deleteRunsIn: their rows cascade, the blobs no other run
 * uses go) and appends one `retention` tombstone listing the runs: one transaction, so a kill leaves
 * the runs or the runs gone with their tombstone, never one without the other.
 */
async function removeRuns(db: Database, key: EvidenceKey, ids: readonly string[], what: string, policy: LoadedPolicy, at: string, suiteIds: readonly string[] = []): Promise<number> {
  if (ids.length === 0 && suiteIds.length === 0) return 0;
  return withEvidenceTx(db.prisma, async (tx) => {
    const heads = ids.length ? await tx.evidenceChain.findMany({ where: { chain: { in: [...ids] } }, select: { chain: true, hash: true } }) : [];
    const headOf = new Map(heads.map((h) => [h.chain, h.hash]));
    const gone = ids.length ? await deleteRunsIn({ prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close }, ids) : 0;
    if (suiteIds.length) await tx.suiteRun.deleteMany({ where: { id: { in: [...suiteIds] } } });
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
 * policy names when absent) at `now`, for at most `budgetMs` of removal work. `tally: false` (the
 * sweep) counts nothing it does not remove: its lines' `stays` are null.
 */
export async function applyRetention(
  policy: LoadedPolicy,
  options: { tenant?: string; dryRun?: boolean; now?: Date; budgetMs?: number; db?: Database; key?: EvidenceKey; tally?: boolean } = {},
): Promise<RetentionReport> {
  const db = options.db ?? getDb();
  const now = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const tally = options.tally ?? true;
  const deadline = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const key = dryRun ? null : (options.key ?? evidenceKey());
  const at = now.toISOString();
  const lines: RetentionLine[] = [];
  let complete = true;
  const p = db.prisma;
  /** Runs `batch` until it finds nothing left (null) or the budget is spent; what it removed in all. */
  const drain = async (batch: () => Promise<number | null>): Promise<number> => {
    let total = 0;
    for (;;) {
      if (Date.now() > deadline) {
        complete = false;
        return total;
      }
      const n = await batch();
      if (n === null) return total;
      total += n;
    }
  };
  /**
   * One class's line: what it held first (when tallying), then what of it goes — counted on a dry run,
   * removed otherwise; nothing when the class has no rule (`due` null).
   */
  const apply = async (c: { tenant: string | null; what: string; rule: string; all: () => Promise<number>; due: { count: () => Promise<number>; remove: () => Promise<number> } | null }) => {
    const before = tally ? await c.all() : null;
    const goes = !c.due ? 0 : dryRun ? await c.due.count() : await c.due.remove();
    lines.push({ tenant: c.tenant, what: c.what, rule: c.rule, goes, stays: before === null ? null : before - goes });
  };

  for (const [tenant, schedule] of tenantsOf(policy, options.tenant)) {
    for (const source of ['harness', 'imported'] as const) {
      const days = schedule?.runs?.[source];
      const before = days === undefined ? null : cutoff(now, days);
      await apply({
        tenant,
        what: `runs.${source}`,
        rule: days === undefined ? 'kept' : olderThan(days),
        all: () => p.run.count({ where: { tenant, source, suiteRunId: null } }),
        due: before && {
          count: () => p.run.count({ where: { tenant, source, suiteRunId: null, status: 'finished', startedAt: { lt: before } } }),
          remove: () =>
            drain(async () => {
              const batch = (await runsDue(db, tenant, source, before, RUNS_PER_BATCH[db.provider])).map((r) => r.id);
              if (batch.length === 0) return null;
              const removed = await removeRuns(db, key!, batch, `runs.${source} ${olderThan(days!)}`, policy, at);
              await yieldTurn();
              return removed;
            }),
        },
      });
    }

    const suiteDays = schedule?.suites;
    const suitesDue = suiteDays === undefined ? null : { tenant, status: { in: ['finished', 'failed', 'cancelled'] }, createdAt: { lt: cutoff(now, suiteDays) } };
    await apply({
      tenant,
      what: 'suites',
      rule: suiteDays === undefined ? 'kept' : olderThan(suiteDays),
      all: () => p.suiteRun.count({ where: { tenant } }),
      due: suitesDue && {
        count: () => p.suiteRun.count({ where: suitesDue }),
        remove: () =>
          drain(async () => {
            const suite = await p.suiteRun.findFirst({ where: suitesDue, select: { id: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
            if (!suite) return null;
            const runs = (await p.run.findMany({ where: { suiteRunId: suite.id }, select: { id: true } })).map((r) => r.id);
            // A big suite goes in batches of runs; the suite row with the last one (alone when it has none).
            const per = RUNS_PER_BATCH[db.provider];
            for (let i = 0; i < Math.max(runs.length, 1); i += per) {
              await removeRuns(db, key!, runs.slice(i, i + per), `suites ${olderThan(suiteDays!)}`, policy, at, i + per >= runs.length ? [suite.id] : []);
              await yieldTurn();
            }
            return 1;
          }),
      },
    });

    const otlpDays = schedule?.otlpRows;
    // Built traces past the period that still hold raw rows.
    const tracesDue = otlpDays === undefined ? null : { tenant, runId: { not: null }, lastSpanAt: { lt: cutoff(now, otlpDays) }, spanCount: { gt: 0 } };
    await apply({
      tenant,
      what: 'otlpRows',
      rule: otlpDays === undefined ? 'kept' : `${olderThan(otlpDays)} after the last span, once the run is built`,
      all: () => p.otlpTrace.count({ where: { tenant } }),
      due: tracesDue && {
        count: () => p.otlpTrace.count({ where: tracesDue }),
        remove: () =>
          drain(async () => {
            const ids = (await p.otlpTrace.findMany({ where: tracesDue, select: { traceId: true }, take: TRACES_PER_BATCH })).map((t) => t.traceId);
            if (ids.length === 0) return null;
            await p.$transaction([
              p.otlpSpan.deleteMany({ where: { tenant, traceId: { in: ids } } }),
              // A conversation's tail (a digest, no content) stays: a later call of the conversation still joins its run.
              p.otlpLog.deleteMany({ where: { tenant, traceId: { in: ids }, name: { not: CONVERSATION_TAIL } } }),
              // The trace row stays (its run, and that it was received): it holds no raw spans any more.
              p.otlpTrace.updateMany({ where: { tenant, traceId: { in: ids } }, data: { spanCount: 0 } }),
            ]);
            return ids.length;
          }),
      },
    });

    const judgeDays = schedule?.judgeCache;
    const callsDue = judgeDays === undefined ? null : { tenant, createdAt: { lt: cutoff(now, judgeDays) } };
    await apply({
      tenant,
      what: 'judgeCache',
      rule: judgeDays === undefined ? 'kept' : olderThan(judgeDays),
      all: () => p.judgeCall.count({ where: { tenant } }),
      due: callsDue && { count: () => p.judgeCall.count({ where: callsDue }), remove: async () => (await p.judgeCall.deleteMany({ where: callsDue })).count },
    });
  }

  // Every tenant alike: sign-in state nobody can use any more.
  const expired = { expiresAt: { lt: now } };
  await apply({
    tenant: null,
    what: 'sessions',
    rule: 'expired',
    all: () => p.session.count(),
    due: { count: () => p.session.count({ where: expired }), remove: async () => (await p.session.deleteMany({ where: expired })).count },
  });
  const over = { windowStartMs: { lt: BigInt(now.getTime() - THROTTLE_KEEP_MS) } };
  await apply({
    tenant: null,
    what: 'signInThrottle',
    rule: 'windows over for a day',
    all: () => p.signInThrottle.count(),
    due: { count: () => p.signInThrottle.count({ where: over }), remove: async () => (await p.signInThrottle.deleteMany({ where: over })).count },
  });
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
  return applyRetention(policy, { now, budgetMs: SWEEP_BUDGET_MS, db, tally: false });
}
