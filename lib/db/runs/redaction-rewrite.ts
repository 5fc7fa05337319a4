import 'server-only';
/**
 * `redact --rewrite` (issue 33): content a tenant stored before its current redaction classes applied
 * is rewritten under them — each run's content (read back whole and stored again in place, as a
 * live run's next step is: replaceRun's writer), the raw OTLP spans and logs of the trace it was
 * built from, its reviewers' label comments, and its governed run's records (spec and result,
 * approval requests' arguments, reviewers' reasons, journal results and errors).
 *
 * In batches, like retention: one transaction per batch of runs, which also appends one
 * `redaction_rewrite` event to the global evidence chain (the tenant, its classes, each run with its
 * chain's head digest, each rewritten label with its new digest). A batch commits whole or not at
 * all, so a process killed half-way leaves runs rewritten and recorded or untouched; run again, it
 * takes the runs still due (Run.redactedAt marks the rewritten ones) and completes. A run stored
 * again meanwhile (a live run's step, a resumed governed run) is already under the current classes
 * and is left alone. Only the tenant's own rows are read or written.
 */
import { labelDigest } from '../../eval';
import { evidenceBody, evidenceKey, type EvidenceKey, type Redactor } from '../../governance';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { appendEvidenceIn, storedBeforeWhere, withEvidenceTx, type Tx } from '../governance';
import { jsonOf, rewriteGovernedRecords, rewriteGovernedRun } from '../governance';
import { classesInForce, LABEL_COMMENT, lockedRunRedactions, mergeRedactions, runRedactors } from '../governance';
import { getRunOrThrow } from './runs-read';
import { lockBlobsForPruneIn, prepareRunAgain, writeRunAgainIn, type PreparedRun } from './runs-write';
import type { SaveRunMeta } from './types';

/**
 * Runs rewritten per transaction (with their evidence event). Each is read whole and written again,
 * so a batch is small: SQLite has one writer, shared in the embedded server with the pages (bench
 * `--only rewrite`: with 20 a page read waited up to ~370 ms at p95, with 5 ~230 ms, on a loaded machine).
 */
export const REWRITE_RUNS_PER_BATCH = { sqlite: 5, postgres: 50 } as const;
/** Trajectory steps per batch at most (a batch holds at least one run): a long run's rows are many. */
export const REWRITE_STEPS_PER_BATCH = 20_000;
const yieldTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

/** What a rewrite did (or, dry, would do). */
export interface RewriteReport {
  tenant: string;
  /** The classes content is rewritten under, and since when they apply. */
  classes: string[];
  since: string;
  dryRun: boolean;
  /** Runs rewritten (dry run: due). */
  runs: number;
  /** Label comments, raw OTLP rows and governed-run records rewritten (dry run: not counted, null). */
  labels: number | null;
  otlpRows: number | null;
  governed: number | null;
  /** Transactions committed (each with its evidence event). */
  batches: number;
  /** Runs of the tenant still stored before its classes applied (0 once complete). */
  left: number;
}

/**
 * Rewrites (or with `dryRun`, counts) the content `tenant` stored before its current redaction
 * classes applied. `by`: the admin asking (recorded as the events' actor). InvalidInputError naming
 * `tenant` when it keeps nothing out. `onBatch` is told after each committed batch (progress).
 */
export async function rewriteRedaction(
  tenant: string,
  options: { by: string; dryRun?: boolean; db?: Database; key?: EvidenceKey; batchSize?: number; onBatch?: (done: number) => void },
): Promise<RewriteReport> {
  const db = options.db ?? getDb();
  const recorded = await classesInForce(db.prisma, tenant);
  if (!recorded || recorded.classes.length === 0) throw new InvalidInputError('tenant', `tenant ${tenant} keeps nothing out of storage (no redaction classes in the policy file): nothing to rewrite`);
  const since = new Date(recorded.at);
  const report: RewriteReport = { tenant, classes: recorded.classes, since: recorded.at, dryRun: options.dryRun === true, runs: 0, labels: null, otlpRows: null, governed: null, batches: 0, left: 0 };
  if (report.dryRun) {
    report.runs = report.left = await db.prisma.run.count({ where: storedBeforeWhere(tenant, since) });
    return report;
  }
  Object.assign(report, { labels: 0, otlpRows: 0, governed: 0 });
  const key = options.key ?? evidenceKey();
  const take = options.batchSize ?? REWRITE_RUNS_PER_BATCH[db.provider === 'postgres' ? 'postgres' : 'sqlite'];
  // A cursor, so a run that cannot be rewritten (unreadable) is passed once, not retried forever.
  let after = '';
  for (;;) {
    const candidates = await db.prisma.run.findMany({ where: { ...storedBeforeWhere(tenant, since), id: { gt: after } }, select: { id: true, trajectoryLength: true }, orderBy: { id: 'asc' }, take });
    if (candidates.length === 0) break;
    // Long runs make a batch of fewer: its transaction stays short whatever the runs hold.
    let steps = 0;
    let n = 0;
    while (n < candidates.length && (n === 0 || steps + candidates[n]!.trajectoryLength <= REWRITE_STEPS_PER_BATCH)) steps += candidates[n++]!.trajectoryLength;
    const batch = candidates.slice(0, n);
    after = batch.at(-1)!.id;
    const done = await rewriteBatch(db, key, tenant, recorded.classes, since, batch.map((r) => r.id), options.by);
    report.runs += done.runs;
    report.labels! += done.labels;
    report.otlpRows! += done.otlpRows;
    report.governed! += done.governed;
    report.batches += 1;
    options.onBatch?.(report.runs);
    if (db.provider !== 'postgres') await yieldTurn();
  }
  report.left = await db.prisma.run.count({ where: storedBeforeWhere(tenant, since) });
  return report;
}

/** A run read back and built again under the current classes, with what its stored row said. */
interface Prepared extends PreparedRun {
  meta: SaveRunMeta & { id: string };
  createdAt: Date;
}

/** Reads and rebuilds the runs `ids` (outside the transaction: reading a whole run is the slow part). */
async function prepare(db: Database, tenant: string, ids: readonly string[]): Promise<Prepared[]> {
  const out: Prepared[] = [];
  for (const id of ids) {
    const row = await db.prisma.run.findUnique({ where: { id }, select: { tenant: true, createdAt: true, createdBy: true, sessionId: true, traceUserId: true, epoch: true } });
    if (!row || row.tenant !== tenant) continue;
    const stored = await getRunOrThrow(id, db);
    const { setting: _setting, ...meta } = stored.meta;
    const full = { ...meta, id, createdBy: row.createdBy, sessionId: row.sessionId, traceUserId: row.traceUserId, epoch: row.epoch };
    out.push({ ...(await prepareRunAgain(stored.run, full, db)), meta: full, createdAt: row.createdAt });
    // Rebuilding a run is CPU work: between runs, a page the same process serves gets its turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/** One batch: the runs rewritten with everything stored of them, and one evidence event, in one transaction. */
async function rewriteBatch(db: Database, key: EvidenceKey, tenant: string, classes: string[], since: Date, ids: readonly string[], by: string) {
  const prepared = await prepare(db, tenant, ids);
  // One for the labels (what they lose is listed on the run), one for the raw rows (listed nowhere: the run built from them lists it).
  const redactors = await runRedactors(db.prisma, prepared.map((p) => p.meta));
  const otlpRedactors = await runRedactors(db.prisma, prepared.map((p) => p.meta));
  const at = new Date();
  return withEvidenceTx(db.prisma, async (tx) => {
    const txDb: Database = { prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close };
    await lockBlobsForPruneIn(txDb);
    const counts = { runs: 0, labels: 0, otlpRows: 0, governed: 0 };
    const rewritten: { runId: string; chainHead: string | null }[] = [];
    const relabelled: { runId: string; seq: number; digest: string }[] = [];
    for (const [i, p] of prepared.entries()) {
      // Locked, then checked: a run stored again since it was read (a live run's step, a resumed
      // governed run) is under the current classes already, and its newer version stays.
      await lockedRunRedactions(tx, db.provider, p.id);
      const now = await tx.run.findUnique({ where: { id: p.id }, select: { createdAt: true, redactedAt: true } });
      if (!now || now.createdAt.getTime() !== p.createdAt.getTime() || (now.redactedAt && now.redactedAt >= since)) continue;
      await writeRunAgainIn(txDb, p, { createdAt: p.createdAt, redactedAt: at });
      counts.runs += 1;
      rewritten.push({ runId: p.id, chainHead: null });
      const labels = redactors[i];
      const raw = otlpRedactors[i];
      if (!labels || !raw) continue;
      relabelled.push(...(await rewriteLabels(tx, p.id, labels)));
      if (labels.redactions().length > 0) {
        const stored = await tx.run.findUniqueOrThrow({ where: { id: p.id }, select: { redactions: true } });
        await tx.run.update({ where: { id: p.id }, data: { redactions: mergeRedactions(stored.redactions, labels.redactions()) } });
      }
      counts.otlpRows += await rewriteOtlpRows(tx, tenant, p.id, raw);
      counts.governed += (await rewriteGovernedRun(tx, p.id, tenant)) + (await rewriteGovernedRecords(tx, p.id, tenant, raw));
    }
    counts.labels = relabelled.length;
    const heads = new Map((await tx.evidenceChain.findMany({ where: { chain: { in: rewritten.map((r) => r.runId) } }, select: { chain: true, hash: true } })).map((h) => [h.chain, h.hash]));
    for (const r of rewritten) r.chainHead = heads.get(r.runId) ?? null;
    if (rewritten.length > 0) {
      await appendEvidenceIn(
        tx,
        key,
        evidenceBody({
          kind: 'redaction_rewrite',
          at: at.toISOString(),
          rule: tenant,
          redactions: classes,
          actor: by,
          detail: `${rewritten.length} run(s) of tenant ${tenant} stored before ${since.toISOString()} rewritten under ${classes.join(', ')}`,
          rewritten,
          ...(relabelled.length ? { relabelled } : {}),
        }),
      );
    }
    return counts;
  });
}

/** The run's label comments under the current classes; each one changed gets its new digest (returned for the evidence). */
async function rewriteLabels(tx: Tx, runId: string, r: Redactor): Promise<{ runId: string; seq: number; digest: string }[]> {
  const out: { runId: string; seq: number; digest: string }[] = [];
  for (const l of await tx.runLabel.findMany({ where: { runId }, orderBy: { id: 'asc' } })) {
    const comment = r.text(l.comment, LABEL_COMMENT);
    if (comment === l.comment) continue;
    const digest = labelDigest({ ...l, comment, createdAt: l.createdAt.toISOString() });
    await tx.runLabel.update({ where: { id: l.id }, data: { comment, digest } });
    out.push({ runId, seq: l.evidenceSeq, digest });
  }
  return out;
}


/** The raw OTLP spans and logs of the trace run `runId` was built from, under the current classes (as otlp-store.ts redacts a batch). */
async function rewriteOtlpRows(tx: Tx, tenant: string, runId: string, r: Redactor): Promise<number> {
  let n = 0;
  for (const { traceId } of await tx.otlpTrace.findMany({ where: { tenant, runId }, select: { traceId: true } })) {
    for (const s of await tx.otlpSpan.findMany({ where: { tenant, traceId } })) {
      const where = `span ${s.name}`;
      const attributes = JSON.stringify(r.json(jsonOf(s.attributes), where));
      const statusMessage = r.text(s.statusMessage, where);
      const events = JSON.stringify(r.json(jsonOf(s.events), where));
      if (attributes === s.attributes && statusMessage === s.statusMessage && events === s.events) continue;
      await tx.otlpSpan.update({ where: { tenant_traceId_spanId: { tenant, traceId, spanId: s.spanId } }, data: { attributes, statusMessage, events } });
      n += 1;
    }
    for (const l of await tx.otlpLog.findMany({ where: { tenant, traceId } })) {
      const attributes = JSON.stringify(r.json(jsonOf(l.attributes), `log ${l.name}`));
      if (attributes === l.attributes) continue;
      await tx.otlpLog.update({ where: { tenant_traceId_digest: { tenant, traceId, digest: l.digest } }, data: { attributes } });
      n += 1;
    }
  }
  return n;
}
