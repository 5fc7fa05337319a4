import 'server-only';
/**
 * Traces assembled from spans as they arrive. Every span (and every span-bound log record) is kept,
 * idempotent on (tenant, trace id, span id), and the run of a trace is rebuilt from all of its
 * spans whenever one arrives that was not there before, under the same run id. The rebuild itself
 * (spans → run) is handed in by the OTLP import (lib/otel sits above this floor).
 *
 * One interactive transaction per batch: on PostgreSQL the batch's known traces are locked
 * (FOR UPDATE, in trace-id order) before their spans are read, so two requests adding spans to
 * one trace rebuild it one after the other; a trace new to both inserts its OtlpTrace row in
 * both, and the second insert fails on the key and is retried once, when the trace is known.
 */
import { Prisma as Sql } from '../generated/sqlite/client';
import { BlobSet } from '../core';
import { insertAll, writeTables, type TableRows } from '../core';
import { holdingClient } from '../core';
import { getDb, type Database, type Prisma } from '../core';
import { newId } from '../core';
import { buildRunRows, type RunRows } from '../runs';
import { redactorFor, runRedactors, type SubjectIds } from '../governance';
import { runTables } from '../runs';
import type { SaveRunInput } from '../runs';

/** Trace ids per `IN (…)` list. */
const TRACES_PER_STATEMENT = 500;
/** How long one batch's transaction may take (a 1,000-span batch of 100 traces takes well under a second). */
const TX_TIMEOUT_MS = 120_000;

/** One span as stored (the OTLP import's SpanRecord has this shape). */
export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; timeNs: bigint; attributes: Record<string, unknown> }>;
  statusCode: number;
  statusMessage: string;
  serviceName: string | null;
}

/** One OTLP log record bound to a span (GenAI content events). */
export interface StoredLog {
  traceId: string;
  spanId: string;
  digest: string;
  timeNs: bigint;
  name: string;
  attributes: Record<string, unknown>;
}

/** What the import makes of one trace's spans. */
export type TraceBuild =
  /** Not an agent trace (and not one already being assembled): its new spans are refused. */
  | { kind: 'refused' }
  /** An agent trace still without a model or tool span: spans kept, no run yet. */
  | { kind: 'pending'; rootEnded: boolean }
  | { kind: 'run'; input: SaveRunInput; rootEnded: boolean };

/** How a trace that is one bare model call continues a conversation (see the import's conversationKeys). */
export interface ConversationKeys {
  tail: string | null;
  prefixes: string[];
}

/** The import's side of the rebuild: spans → run, and the keys that join bare model-call traces. */
export interface TraceBuilder {
  /** The run of a trace (or of several joined ones: their spans together), from all of its spans. */
  build(traceIds: string[], spans: StoredSpan[], logs: StoredLog[], known: boolean): TraceBuild;
  conversationKeys(spans: StoredSpan[]): ConversationKeys | null;
  /** Whose trace this is (its user.id and session.id): the pseudonym key its raw rows are redacted under. */
  subject?(spans: StoredSpan[]): SubjectIds;
}

/** OtlpLog rows under this name hold a bare model-call trace's conversation tail (its digest), not content. */
export const CONVERSATION_TAIL = 'stockroom.conversation.tail';

export interface TraceOutcome {
  traceId: string;
  /** `stored`: the run was (re)built; `pending`: kept, no run yet; `unchanged`: nothing new (a resend); `refused`. */
  status: 'stored' | 'pending' | 'unchanged' | 'refused';
  runId: string | null;
  /** Spans of this trace the batch added (0 for a resend). */
  newSpans: number;
  /** Spans of the batch refused (their trace is not an agent trace). */
  refusedSpans: number;
  /** Spans of the batch whose id this trace already had with different content: set aside (the first kept). */
  conflicting: Array<{ spanId: string; name: string }>;
  build: TraceBuild | null;
}

/** Whether a resent span says the same as the one stored (an exporter's retry) or something else. */
const sameSpan = (a: StoredSpan, b: StoredSpan) =>
  a.name === b.name && a.startNs === b.startNs && a.endNs === b.endNs && a.parentSpanId === b.parentSpanId && a.statusCode === b.statusCode && JSON.stringify(a.attributes) === JSON.stringify(b.attributes);

type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

interface TraceRow {
  traceId: string;
  runId: string | null;
  spanCount: number;
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

function groupBy<T extends { traceId: string }>(items: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const list = map.get(item.traceId);
    if (list) list.push(item);
    else map.set(item.traceId, [item]);
  }
  return map;
}

const eventsJson = (events: StoredSpan['events']) => JSON.stringify(events.map((e) => ({ name: e.name, timeNs: String(e.timeNs), attributes: e.attributes })));

function spanFromRow(row: {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  statusMessage: string;
  serviceName: string | null;
  attributes: string;
  events: string;
}): StoredSpan {
  const events = JSON.parse(row.events) as Array<{ name: string; timeNs: string; attributes: Record<string, unknown> }>;
  return {
    traceId: row.traceId,
    spanId: row.spanId,
    parentSpanId: row.parentSpanId,
    name: row.name,
    kind: row.kind,
    startNs: BigInt(row.startNs),
    endNs: BigInt(row.endNs),
    statusCode: row.statusCode,
    statusMessage: row.statusMessage,
    serviceName: row.serviceName,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    events: events.map((e) => ({ name: e.name, timeNs: BigInt(e.timeNs), attributes: e.attributes })),
  };
}

async function lockKnownTraces(tx: Tx, db: Database, tenant: string, traceIds: string[]): Promise<Map<string, TraceRow>> {
  const known = new Map<string, TraceRow>();
  for (const ids of chunks([...traceIds].sort(), TRACES_PER_STATEMENT)) {
    // Raw on both: a model query's IN list of 500 ids costs milliseconds in Prisma's query compiler.
    const rows =
      db.provider === 'postgres'
        ? await tx.$queryRaw<TraceRow[]>`SELECT "traceId", "runId", "spanCount" FROM "OtlpTrace" WHERE "tenant" = ${tenant} AND "traceId" IN (${Sql.join(ids)}) ORDER BY "traceId" FOR UPDATE`
        : await tx.$queryRaw<TraceRow[]>`SELECT "traceId", "runId", "spanCount" FROM "OtlpTrace" WHERE "tenant" = ${tenant} AND "traceId" IN (${Sql.join(ids)})`;
    for (const r of rows) known.set(r.traceId, { traceId: r.traceId, runId: r.runId, spanCount: Number(r.spanCount) });
  }
  return known;
}

async function storedSpansOf(tx: Tx, tenant: string, traceIds: string[]): Promise<Map<string, StoredSpan[]>> {
  const out = new Map<string, StoredSpan[]>();
  for (const ids of chunks(traceIds, TRACES_PER_STATEMENT)) {
    const rows = await tx.otlpSpan.findMany({ where: { tenant, traceId: { in: ids } } });
    for (const row of rows) {
      const list = out.get(row.traceId);
      const span = spanFromRow(row);
      if (list) list.push(span);
      else out.set(row.traceId, [span]);
    }
  }
  return out;
}

async function storedLogsOf(tx: Tx, tenant: string, traceIds: string[]): Promise<Map<string, StoredLog[]>> {
  const out = new Map<string, StoredLog[]>();
  for (const ids of chunks(traceIds, TRACES_PER_STATEMENT)) {
    const rows = await tx.otlpLog.findMany({ where: { tenant, traceId: { in: ids }, name: { not: CONVERSATION_TAIL } } });
    for (const row of rows) {
      const log: StoredLog = { traceId: row.traceId, spanId: row.spanId, digest: row.digest, timeNs: BigInt(row.timeNs), name: row.name, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
      const list = out.get(row.traceId);
      if (list) list.push(log);
      else out.set(row.traceId, [log]);
    }
  }
  return out;
}

async function ingestOnce(tenant: string, spans: readonly StoredSpan[], logs: readonly StoredLog[], build: TraceBuilder, db: Database): Promise<TraceOutcome[]> {
  const spansByTrace = groupBy(spans);
  const logsByTrace = groupBy(logs);
  // Earliest first, so a conversation's later calls find the earlier ones' tails in the same batch.
  const firstStart = new Map<string, bigint>();
  for (const id of new Set([...spansByTrace.keys(), ...logsByTrace.keys()])) {
    firstStart.set(id, (spansByTrace.get(id) ?? []).reduce<bigint | null>((m, sp) => (m === null || sp.startNs < m ? sp.startNs : m), null) ?? 0n);
  }
  const traceIds = [...firstStart.keys()].sort((x, y) => {
    const a = firstStart.get(x)!;
    const b = firstStart.get(y)!;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return holdingClient(() => db.prisma.$transaction(
    async (tx) => {
      const txDb: Database = { prisma: tx as unknown as Prisma, provider: db.provider, close: async () => undefined, prismaConnection: db.prismaConnection, heldClient: db.heldClient };
      const known = await lockKnownTraces(tx, db, tenant, traceIds);
      const knownIds = traceIds.filter((id) => known.has(id));
      const storedSpans = await storedSpansOf(tx, tenant, knownIds);
      const storedLogs = await storedLogsOf(tx, tenant, knownIds);
      const now = new Date();

      const outcomes: TraceOutcome[] = [];
      const newSpanRows: object[] = [];
      const newLogRows: object[] = [];
      const newTraces: object[] = [];
      const traceUpdates: Array<{ traceId: string; runId: string | null; spanCount: number; rootEnded: boolean }> = [];
      const runs = new Map<string, { input: SaveRunInput; id: string; replaces: boolean }>();
      // Within this batch: each processed trace's spans and logs, its run, and the tails it wrote.
      const batchTraces = new Map<string, { spans: StoredSpan[]; logs: StoredLog[]; runId: string | null }>();
      const batchTails = new Map<string, string>();
      const runOfTrace = async (id: string): Promise<string | null> =>
        batchTraces.get(id)?.runId ?? known.get(id)?.runId ?? (await tx.otlpTrace.findUnique({ where: { tenant_traceId: { tenant, traceId: id } }, select: { runId: true } }))?.runId ?? null;

      for (const traceId of traceIds) {
        const old = storedSpans.get(traceId) ?? [];
        const seen = new Map(old.map((s) => [s.spanId, s]));
        const fresh: StoredSpan[] = [];
        const conflicts: StoredSpan[] = [];
        for (const s of spansByTrace.get(traceId) ?? []) {
          const first = seen.get(s.spanId);
          if (first) {
            if (!sameSpan(first, s)) conflicts.push(s);
            continue;
          }
          seen.set(s.spanId, s);
          fresh.push(s);
        }
        const conflicting = conflicts.map((c) => ({ spanId: c.spanId, name: c.name }));
        const oldLogs = storedLogs.get(traceId) ?? [];
        const seenLogs = new Set(oldLogs.map((l) => l.digest));
        const freshLogs: StoredLog[] = [];
        for (const l of logsByTrace.get(traceId) ?? []) {
          if (seenLogs.has(l.digest)) continue;
          seenLogs.add(l.digest);
          freshLogs.push(l);
        }
        const row = known.get(traceId);
        if (fresh.length === 0 && freshLogs.length === 0) {
          outcomes.push({ traceId, status: 'unchanged', runId: row?.runId ?? null, newSpans: 0, refusedSpans: 0, conflicting, build: null });
          continue;
        }
        // A built trace whose raw spans the retention schedule removed (spanCount 0) cannot be rebuilt
        // from what is left: its run is final, and spans arriving for it now are refused.
        if (row && row.runId !== null && row.spanCount === 0) {
          outcomes.push({ traceId, status: 'refused', runId: row.runId, newSpans: 0, refusedSpans: fresh.length, conflicting, build: null });
          continue;
        }
        const all = [...old, ...fresh];
        const allLogs = [...oldLogs, ...freshLogs];
        let runId = row?.runId ?? null;
        const keys = build.conversationKeys(all);
        if (keys && runId === null && keys.prefixes.length > 0) {
          // A bare model call continuing another's conversation joins that trace's run.
          const inBatch = keys.prefixes.map((p) => batchTails.get(p)).find((t) => t !== undefined);
          const stored = inBatch ? null : await tx.otlpLog.findFirst({ where: { tenant, name: CONVERSATION_TAIL, digest: { in: keys.prefixes } }, select: { traceId: true } });
          const previous = inBatch ?? stored?.traceId ?? null;
          if (previous && previous !== traceId) runId = await runOfTrace(previous);
        }
        // Spans of the other traces of the same run (joined conversations), stored or in this batch.
        const groupIds = [traceId];
        const groupSpans = [...all];
        const groupLogs = [...allLogs];
        if (runId !== null) {
          const memberRows = await tx.otlpTrace.findMany({ where: { tenant, runId }, select: { traceId: true, spanCount: true } });
          if (memberRows.some((m) => m.traceId !== traceId && Number(m.spanCount) === 0)) {
            // The run's other traces lost their raw spans to retention: rebuilding it would lose them.
            outcomes.push({ traceId, status: 'refused', runId, newSpans: 0, refusedSpans: fresh.length, conflicting, build: null });
            continue;
          }
          const members = new Set(memberRows.map((m) => m.traceId));
          for (const [id, t] of batchTraces) if (t.runId === runId) members.add(id);
          members.delete(traceId);
          const others = [...members];
          if (others.length > 0) {
            const fromBatch = others.filter((id) => batchTraces.has(id));
            const fromStore = others.filter((id) => !batchTraces.has(id));
            const sp = await storedSpansOf(tx, tenant, fromStore);
            const lg = await storedLogsOf(tx, tenant, fromStore);
            for (const id of fromStore) {
              groupSpans.push(...(sp.get(id) ?? []));
              groupLogs.push(...(lg.get(id) ?? []));
            }
            for (const id of fromBatch) {
              groupSpans.push(...batchTraces.get(id)!.spans);
              groupLogs.push(...batchTraces.get(id)!.logs);
            }
            groupIds.push(...others);
          }
        }
        // The conflicting resends go to the build after the stored spans: it keeps the first and names them on the run.
        const built = build.build(groupIds, [...groupSpans, ...conflicts], groupLogs, row !== undefined || freshLogs.length > 0 || groupIds.length > 1);
        if (built.kind === 'refused') {
          outcomes.push({ traceId, status: 'refused', runId: null, newSpans: 0, refusedSpans: fresh.length, conflicting, build: built });
          continue;
        }
        for (const s of fresh) {
          newSpanRows.push({
            tenant, traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, name: s.name, kind: s.kind, startNs: s.startNs, endNs: s.endNs,
            statusCode: s.statusCode, statusMessage: s.statusMessage, serviceName: s.serviceName, attributes: JSON.stringify(s.attributes), events: eventsJson(s.events), receivedAt: now,
          });
        }
        for (const l of freshLogs) {
          newLogRows.push({ tenant, traceId, digest: l.digest, spanId: l.spanId, timeNs: l.timeNs, name: l.name, attributes: JSON.stringify(l.attributes), receivedAt: now });
        }
        if (built.kind === 'run') {
          const replaces = runId !== null && (runs.get(runId)?.replaces ?? true);
          runId ??= newId();
          runs.set(runId, { input: built.input, id: runId, replaces });
        }
        batchTraces.set(traceId, { spans: all, logs: allLogs, runId });
        if (keys?.tail) {
          batchTails.set(keys.tail, traceId);
          newLogRows.push({ tenant, traceId, digest: keys.tail, spanId: all[0]!.spanId, timeNs: 0n, name: CONVERSATION_TAIL, attributes: '{}', receivedAt: now });
        }
        const spanCount = all.length;
        if (row) traceUpdates.push({ traceId, runId, spanCount, rootEnded: built.rootEnded });
        else newTraces.push({ tenant, traceId, runId, spanCount, rootEnded: built.rootEnded, lastSpanAt: now });
        outcomes.push({ traceId, status: built.kind === 'run' ? 'stored' : 'pending', runId, newSpans: fresh.length, refusedSpans: 0, conflicting, build: built });
      }

      // Old versions of rebuilt runs go first (their blobs pruned after the new rows reference theirs).
      const replaced = [...runs.values()].filter((r) => r.replaces).map((r) => r.id);
      const oldHashes: string[] = [];
      for (const ids of chunks(replaced, TRACES_PER_STATEMENT)) {
        const refs = await tx.runBlobRef.findMany({ where: { runId: { in: ids } }, select: { hash: true } });
        oldHashes.push(...refs.map((r) => r.hash));
        await tx.run.deleteMany({ where: { id: { in: ids } } });
      }
      const blobs = new BlobSet();
      const redactors = await runRedactors(tx, [...runs.values()].map((r) => r.input.meta));
      const rows: RunRows[] = [...runs.values()].map((r, i) => buildRunRows(r.input.run, r.input.meta, r.id, blobs, redactors[i]));
      const tables: TableRows[] = [
        // The trace row first: a trace new to two concurrent batches fails here in the second.
        { table: 'OtlpTrace', rows: newTraces },
        { table: 'OtlpSpan', rows: newSpanRows, ignoreConflictOn: ['tenant', 'traceId', 'spanId'] },
        { table: 'OtlpLog', rows: newLogRows, ignoreConflictOn: ['tenant', 'traceId', 'digest'] },
        ...(rows.length > 0 ? runTables(blobs.rows.values(), rows) : []),
      ];
      // On the connection this transaction holds: through Prisma each bound byte costs, and a batch binds megabytes.
      await writeTables(txDb, tables);
      for (const u of traceUpdates) {
        await tx.otlpTrace.update({ where: { tenant_traceId: { tenant, traceId: u.traceId } }, data: { runId: u.runId, spanCount: u.spanCount, rootEnded: u.rootEnded, lastSpanAt: now } });
      }
      const stale = [...new Set(oldHashes)].filter((h) => !blobs.rows.has(h));
      for (const hashes of chunks(stale, 1000)) await tx.blob.deleteMany({ where: { hash: { in: hashes }, refs: { none: {} } } });
      return outcomes;
    },
    { timeout: TX_TIMEOUT_MS, maxWait: TX_TIMEOUT_MS },
  ));
}

const isUniqueViolation = (err: unknown) => {
  const text = err instanceof Error ? `${err.message} ${(err as { code?: unknown }).code ?? ''}` : String(err);
  return /P2002|P2010|23505|UNIQUE constraint|unique constraint|duplicate key/i.test(text);
};

/**
 * The batch's spans and logs with the tenant's redaction classes taken out of their attributes, events
 * and status messages (issue 33), per trace under its subject's key: raw rows are stored redacted,
 * and the run built from them is built from what is stored. Nothing to redact: the batch as it came.
 */
async function redactBatch(
  tenant: string,
  spans: readonly StoredSpan[],
  logs: readonly StoredLog[],
  build: TraceBuilder,
  db: Database,
): Promise<{ spans: readonly StoredSpan[]; logs: readonly StoredLog[] }> {
  const spansByTrace = groupBy(spans);
  const logsByTrace = groupBy(logs);
  const out = { spans: [] as StoredSpan[], logs: [] as StoredLog[] };
  for (const traceId of new Set([...spansByTrace.keys(), ...logsByTrace.keys()])) {
    const own = spansByTrace.get(traceId) ?? [];
    const r = await redactorFor(db.prisma, tenant, build.subject?.(own) ?? {});
    if (!r) return { spans, logs };
    for (const s of own) {
      const where = `span ${s.name}`;
      out.spans.push({ ...s, attributes: r.json(s.attributes, where), statusMessage: r.text(s.statusMessage, where), events: s.events.map((e) => ({ ...e, attributes: r.json(e.attributes, where) })) });
    }
    for (const l of logsByTrace.get(traceId) ?? []) out.logs.push({ ...l, attributes: r.json(l.attributes, `log ${l.name}`) });
  }
  return out;
}

/**
 * Stores a batch's new spans and logs for the tenant and rebuilds the run of every trace that got
 * something new. A resent span or log is a no-op; a trace with nothing new is left as it is.
 */
export async function ingestTraceBatch(
  tenant: string,
  spans: readonly StoredSpan[],
  logs: readonly StoredLog[],
  build: TraceBuilder,
  db: Database = getDb(),
): Promise<TraceOutcome[]> {
  ({ spans, logs } = await redactBatch(tenant, spans, logs, build, db));
  try {
    return await ingestOnce(tenant, spans, logs, build, db);
  } catch (err) {
    // Another batch created one of these traces at the same moment: it is known now.
    if (!isUniqueViolation(err)) throw err;
    return ingestOnce(tenant, spans, logs, build, db);
  }
}

/**
 * Finishes the runs of traces whose root span never arrived and that got no span for `quietMs`
 * (the exporter is done with them, or its process is gone). Returns how many runs it finished.
 */
export async function settleQuietTraces(quietMs: number, now: Date = new Date(), db: Database = getDb()): Promise<number> {
  const cutoff = new Date(now.getTime() - quietMs);
  const quiet = await db.prisma.otlpTrace.findMany({ where: { rootEnded: false, lastSpanAt: { lt: cutoff }, runId: { not: null } }, select: { tenant: true, traceId: true, runId: true }, take: 5000 });
  if (quiet.length === 0) return 0;
  let finished = 0;
  for (const group of chunks(quiet, TRACES_PER_STATEMENT)) {
    const ids = group.map((q) => q.runId!);
    // The runs this settles wait for their evaluators and the rollup like any finished run (runs-write.ts watchRows).
    const settling = await db.prisma.run.findMany({ where: { id: { in: ids }, status: 'running', source: 'imported', suiteRunId: null }, select: { id: true, tenant: true } });
    const [runs] = await db.prisma.$transaction([
      db.prisma.run.updateMany({ where: { id: { in: ids }, status: 'running', source: 'imported' }, data: { status: 'finished' } }),
      ...insertAll(db, [{ table: 'RunWatch', rows: settling.map((r) => ({ runId: r.id, tenant: r.tenant, createdAt: now })), ignoreConflictOn: 'runId' }]),
      // Settled: a span arriving later rebuilds the run again (and may set it running again).
      ...group.map((q) => db.prisma.otlpTrace.update({ where: { tenant_traceId: { tenant: q.tenant, traceId: q.traceId } }, data: { rootEnded: true } })),
    ]);
    finished += runs.count;
  }
  return finished;
}
