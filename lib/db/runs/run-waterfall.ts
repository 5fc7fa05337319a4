import 'server-only';
/**
 * What a run's waterfall is drawn from, as stored today: each model call's latency and tokens, each
 * tool call's latency and outcome, guard and compaction events, model-call retries (their back-off
 * delay), and approval requests (requested and decided at), each with its recorded start and end
 * offsets where the run recorded them. Ordered by trajectory position; no arguments, results or messages.
 */
import { getDb, type Database } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { MODEL_RETRY_GUARD, retryFromRow } from './retry-rows';
import { SPAN_STEP_GUARD, spanStepFromRow } from './span-step-rows';
import { TOOL_SESSION_GUARD } from './tool-session-rows';
import { jsonRows } from './run-timeline';

/** A recorded start and end in ms from the run's start; null for a row recorded before times were. */
export type RecordedOffsets = { startMs: number; endMs: number } | null;

const offsets = (startMs: number | null, endMs: number | null): RecordedOffsets =>
  startMs === null || endMs === null ? null : { startMs: Number(startMs), endMs: Number(endMs) };

function approvalOffsets(json: string | null): RecordedOffsets {
  if (json === null) return null;
  try {
    const t = JSON.parse(json) as { startMs?: unknown; endMs?: unknown };
    return typeof t.startMs === 'number' && typeof t.endMs === 'number' ? { startMs: t.startMs, endMs: t.endMs } : null;
  } catch {
    return null;
  }
}

export interface WaterfallRows {
  modelId: string;
  durationMs: number;
  /**
   * `priced`: the call was priced on its own (imported traces; issue 31), `costUsd` then its cost
   * (null: unknown); harness calls are priced from the run's model. `agent`: its agent's index.
   */
  /** `ordinal`: 1 for the run's first model call, counting those not read. */
  model: { index: number; step: number; latencyMs: number; /** Null: not reported. */ inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cacheWriteTokens: number | null; /** A streamed call's measured time to first token, ms; null: not streamed. */ timeToFirstTokenMs: number | null; recorded: RecordedOffsets; priced: boolean; costUsd: number | null; agent: number; ordinal: number }[];
  tools: { index: number; step: number; name: string; latencyMs: number; isError: boolean; blockedBy: string | null; executed: boolean; toolUseId: string; recorded: RecordedOffsets; approvalWait: RecordedOffsets; agent: number }[];
  guards: { index: number; step: number; guard: string; reason: string; recorded: RecordedOffsets; agent: number }[];
  /** An imported trace's other spans (chain, retriever, …): never guard events. */
  spans: { index: number; step: number; spanKind: string; name: string; recorded: RecordedOffsets; agent: number }[];
  retries: { index: number; step: number; attempt: number; reason: string; delayMs: number; recorded: RecordedOffsets; agent: number }[];
  compactions: { index: number; step: number; tokensBefore: number; tokensAfter: number; agent: number }[];
  /** Requested and decided at (null while pending), as recorded. */
  approvals: { step: number; callId: string; tool: string; status: string; createdAt: Date; decidedAt: Date | null }[];
}

/**
 * Which rows to read: all of them, or all but those of the agents in `exceptAgents` (a row with no
 * agent is the first agent's, index 0, as everywhere else). Approval requests name no agent and are
 * always read.
 */
export interface WaterfallRowsOptions {
  exceptAgents?: readonly number[];
}

/** `AND` the row's agent is not one of `except` (nothing when there are none). */
function agentCondition(except: readonly number[] | undefined) {
  return except && except.length > 0 ? Sql.sql` AND COALESCE("agentIdx", 0) NOT IN (${Sql.join(except.map((a) => Math.trunc(a)))})` : Sql.empty;
}

/** The waterfall's rows of run `runId` of `tenant`, or null when there is no such run there. */
export async function runWaterfallRows(runId: string, tenant: string, db: Database = getDb(), options: WaterfallRowsOptions = {}): Promise<WaterfallRows | null> {
  const p = db.prisma;
  const run = await p.run.findUnique({ where: { id: runId }, select: { tenant: true, modelId: true, durationMs: true } });
  if (!run || run.tenant !== tenant) return null;
  const agents = agentCondition(options.exceptAgents);
  const [model, tools, guards, compactions, approvals] = await Promise.all([
    // A model call's ordinal counts every model call of the run, read or not ("model call 12" is the twelfth).
    // The two long lists as one JSON text each (lib/db/run-timeline.ts jsonRows).
    jsonRows<{ idx: number; step: number; latencyMs: number; inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cacheWriteTokens: number | null; timeToFirstTokenMs: number | null; startMs: number | null; endMs: number | null; costUsd: number | null; costNote: string | null; agentIdx: number | null; ordinal: number | bigint }>(
      db,
      ['idx', 'step', 'latencyMs', 'inputTokens', 'outputTokens', 'cachedTokens', 'cacheWriteTokens', 'timeToFirstTokenMs', 'startMs', 'endMs', 'costUsd', 'costNote', 'agentIdx', 'ordinal'],
      Sql.sql`SELECT * FROM (SELECT "idx", "step", "latencyMs", "inputTokens", "outputTokens", "cachedTokens", "cacheWriteTokens", "timeToFirstTokenMs", "startMs", "endMs", "costUsd", "costNote", "agentIdx", ROW_NUMBER() OVER (ORDER BY "idx") AS "ordinal" FROM "ModelTurn" WHERE "runId" = ${runId}) AS "turns" WHERE TRUE${agents}`,
      'idx',
    ),
    jsonRows<{ idx: number; step: number; name: string; latencyMs: number; isError: boolean | number; blockedBy: string | null; executed: boolean | number; toolUseId: string; startMs: number | null; endMs: number | null; approvalWait: string | null; agentIdx: number | null }>(
      db,
      ['idx', 'step', 'name', 'latencyMs', 'isError', 'blockedBy', 'executed', 'toolUseId', 'startMs', 'endMs', 'approvalWait', 'agentIdx'],
      Sql.sql`SELECT "idx", "step", "name", "latencyMs", "isError", "blockedBy", "executed", "toolUseId", "startMs", "endMs", "approvalWait", "agentIdx" FROM "ToolCall" WHERE "runId" = ${runId}${agents}`,
      'idx',
    ),
    p.$queryRaw<{ idx: number; step: number; guard: string; reason: string; detail: string; startMs: number | null; endMs: number | null; agentIdx: number | null }[]>`
      SELECT "idx", "step", "guard", "reason", "detail", "startMs", "endMs", "agentIdx" FROM "GuardEvent" WHERE "runId" = ${runId}${agents} ORDER BY "idx"`,
    p.$queryRaw<{ idx: number; step: number; tokensBefore: number; tokensAfter: number; agentIdx: number | null }[]>`
      SELECT "idx", "step", "tokensBefore", "tokensAfter", "agentIdx" FROM "CompactionEvent" WHERE "runId" = ${runId}${agents} ORDER BY "idx"`,
    p.approvalRequest.findMany({ where: { runId }, orderBy: { createdAt: 'asc' }, select: { step: true, callId: true, tool: true, status: true, createdAt: true, decidedAt: true } }),
  ]);
  // Raw rows: numbers as the driver returns them (PostgreSQL's integers may be strings or bigints).
  const guardRows = guards.map((g) => ({ ...g, idx: Number(g.idx), step: Number(g.step), startMs: g.startMs === null ? null : Number(g.startMs), endMs: g.endMs === null ? null : Number(g.endMs), agentIdx: g.agentIdx === null ? null : Number(g.agentIdx) }));
  return {
    modelId: run.modelId,
    durationMs: run.durationMs,
    model: model.map((m) => ({ index: Number(m.idx), step: Number(m.step), latencyMs: Number(m.latencyMs), inputTokens: m.inputTokens === null ? null : Number(m.inputTokens), outputTokens: m.outputTokens === null ? null : Number(m.outputTokens), cachedTokens: m.cachedTokens === null ? null : Number(m.cachedTokens), cacheWriteTokens: m.cacheWriteTokens === null ? null : Number(m.cacheWriteTokens), timeToFirstTokenMs: m.timeToFirstTokenMs === null ? null : Number(m.timeToFirstTokenMs), recorded: offsets(m.startMs, m.endMs), priced: m.costNote !== null, costUsd: m.costUsd === null ? null : Number(m.costUsd), agent: m.agentIdx === null ? 0 : Number(m.agentIdx), ordinal: Number(m.ordinal) })),
    tools: tools.map((t) => ({ index: Number(t.idx), step: Number(t.step), name: t.name, latencyMs: Number(t.latencyMs), isError: Boolean(t.isError), blockedBy: t.blockedBy, executed: Boolean(t.executed), toolUseId: t.toolUseId, recorded: offsets(t.startMs, t.endMs), approvalWait: approvalOffsets(t.approvalWait), agent: t.agentIdx === null ? 0 : Number(t.agentIdx) })),
    guards: guardRows.filter((g) => g.guard !== MODEL_RETRY_GUARD && g.guard !== SPAN_STEP_GUARD && g.guard !== TOOL_SESSION_GUARD).map((g) => ({ index: g.idx, step: g.step, guard: g.guard, reason: g.reason, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 })),
    spans: guardRows
      .filter((g) => g.guard === SPAN_STEP_GUARD)
      .map((g) => ({ index: g.idx, step: g.step, spanKind: g.reason, name: spanStepFromRow(g).name, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 })),
    retries: guardRows
      .filter((g) => g.guard === MODEL_RETRY_GUARD)
      .map((g) => {
        const r = retryFromRow(g);
        return { index: g.idx, step: g.step, attempt: r.attempt, reason: r.reason, delayMs: r.delayMs, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 };
      }),
    compactions: compactions.map((c) => ({ index: Number(c.idx), step: Number(c.step), tokensBefore: Number(c.tokensBefore), tokensAfter: Number(c.tokensAfter), agent: c.agentIdx === null ? 0 : Number(c.agentIdx) })),
    approvals,
  };
}

/**
 * What the span tree's first rows need to know of the whole waterfall without reading it: how many
 * bars it has, each agent's earliest bar (its trajectory position and step; a row with no agent is
 * agent 0's), the latest recorded end, and how many bars are not placed by a recorded span (no start
 * or end, an end before the start, compactions and approval waits): only when there are none does
 * every bar stand where its own span says, independent of the bars before it.
 */
export interface WaterfallOutline {
  barCount: number;
  unplaced: number;
  maxEndMs: number | null;
  durationMs: number;
  firsts: { agent: number; index: number; step: number }[];
}

export async function runWaterfallOutline(runId: string, tenant: string, db: Database = getDb()): Promise<WaterfallOutline | null> {
  const p = db.prisma;
  const run = await p.run.findUnique({ where: { id: runId }, select: { tenant: true, durationMs: true } });
  if (!run || run.tenant !== tenant) return null;
  const [agents, [others]] = await Promise.all([
    p.$queryRaw<{ agent: number | bigint; idx: number; step: number; n: number | bigint; unplaced: number | bigint | null; maxEnd: number | null }[]>`
      WITH "bars" AS (
        SELECT COALESCE("agentIdx", 0) AS "agent", "idx", "step", "startMs", "endMs" FROM "ModelTurn" WHERE "runId" = ${runId}
        UNION ALL SELECT COALESCE("agentIdx", 0), "idx", "step", "startMs", "endMs" FROM "ToolCall" WHERE "runId" = ${runId}
        UNION ALL SELECT COALESCE("agentIdx", 0), "idx", "step", "startMs", "endMs" FROM "GuardEvent" WHERE "runId" = ${runId}
      )
      SELECT "agent", "idx", "step", "n", "unplaced", "maxEnd" FROM (
        SELECT "agent", "idx", "step",
          ROW_NUMBER() OVER (PARTITION BY "agent" ORDER BY "idx") AS "rn",
          COUNT(*) OVER (PARTITION BY "agent") AS "n",
          SUM(CASE WHEN "startMs" IS NULL OR "endMs" IS NULL OR "endMs" < "startMs" THEN 1 ELSE 0 END) OVER (PARTITION BY "agent") AS "unplaced",
          MAX("endMs") OVER (PARTITION BY "agent") AS "maxEnd"
        FROM "bars"
      ) AS "ranked" WHERE "rn" = 1`,
    p.$queryRaw<{ compactions: number | bigint; approvals: number | bigint }[]>`
      SELECT (SELECT COUNT(*) FROM "CompactionEvent" WHERE "runId" = ${runId}) AS "compactions", (SELECT COUNT(*) FROM "ApprovalRequest" WHERE "runId" = ${runId}) AS "approvals"`,
  ]);
  const waits = Number(others!.compactions) + Number(others!.approvals);
  let maxEndMs: number | null = null;
  for (const a of agents) if (a.maxEnd !== null && (maxEndMs === null || Number(a.maxEnd) > maxEndMs)) maxEndMs = Number(a.maxEnd);
  return {
    barCount: agents.reduce((sum, a) => sum + Number(a.n), 0) + waits,
    unplaced: agents.reduce((sum, a) => sum + Number(a.unplaced ?? 0), 0) + waits,
    maxEndMs,
    durationMs: run.durationMs,
    firsts: agents.map((a) => ({ agent: Number(a.agent), index: Number(a.idx), step: Number(a.step) })),
  };
}
