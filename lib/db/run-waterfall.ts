import 'server-only';
/**
 * What a run's waterfall is drawn from, as stored today: each model call's latency and tokens, each
 * tool call's latency and outcome, guard and compaction events, model-call retries (their back-off
 * delay), and approval requests (requested and decided at), each with its recorded start and end
 * offsets where the run recorded them. Ordered by trajectory position; no arguments, results or messages.
 */
import { getDb, type Database } from './client';
import { MODEL_RETRY_GUARD, retryFromRow } from './retry-rows';
import { SPAN_STEP_GUARD, spanStepFromRow } from './span-step-rows';

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
  model: { index: number; step: number; latencyMs: number; /** Null: not reported. */ inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cacheWriteTokens: number | null; recorded: RecordedOffsets; priced: boolean; costUsd: number | null; agent: number }[];
  tools: { index: number; step: number; name: string; latencyMs: number; isError: boolean; blockedBy: string | null; executed: boolean; toolUseId: string; recorded: RecordedOffsets; approvalWait: RecordedOffsets; agent: number }[];
  guards: { index: number; step: number; guard: string; reason: string; recorded: RecordedOffsets; agent: number }[];
  /** An imported trace's other spans (chain, retriever, …): never guard events. */
  spans: { index: number; step: number; spanKind: string; name: string; recorded: RecordedOffsets; agent: number }[];
  retries: { index: number; step: number; attempt: number; reason: string; delayMs: number; recorded: RecordedOffsets; agent: number }[];
  compactions: { index: number; step: number; tokensBefore: number; tokensAfter: number; agent: number }[];
  /** Requested and decided at (null while pending), as recorded. */
  approvals: { step: number; callId: string; tool: string; status: string; createdAt: Date; decidedAt: Date | null }[];
}

/** The waterfall's rows of run `runId` of `tenant`, or null when there is no such run there. */
export async function runWaterfallRows(runId: string, tenant: string, db: Database = getDb()): Promise<WaterfallRows | null> {
  const p = db.prisma;
  const run = await p.run.findUnique({ where: { id: runId }, select: { tenant: true, modelId: true, durationMs: true } });
  if (!run || run.tenant !== tenant) return null;
  const [model, tools, guards, compactions, approvals] = await Promise.all([
    p.$queryRaw<{ idx: number; step: number; latencyMs: number; inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cacheWriteTokens: number | null; startMs: number | null; endMs: number | null; costUsd: number | null; costNote: string | null; agentIdx: number | null }[]>`
      SELECT "idx", "step", "latencyMs", "inputTokens", "outputTokens", "cachedTokens", "cacheWriteTokens", "startMs", "endMs", "costUsd", "costNote", "agentIdx" FROM "ModelTurn" WHERE "runId" = ${runId} ORDER BY "idx"`,
    p.$queryRaw<{ idx: number; step: number; name: string; latencyMs: number; isError: boolean | number; blockedBy: string | null; executed: boolean | number; toolUseId: string; startMs: number | null; endMs: number | null; approvalWait: string | null; agentIdx: number | null }[]>`
      SELECT "idx", "step", "name", "latencyMs", "isError", "blockedBy", "executed", "toolUseId", "startMs", "endMs", "approvalWait", "agentIdx" FROM "ToolCall" WHERE "runId" = ${runId} ORDER BY "idx"`,
    p.guardEvent.findMany({ where: { runId }, orderBy: { idx: 'asc' }, select: { idx: true, step: true, guard: true, reason: true, detail: true, startMs: true, endMs: true, agentIdx: true } }),
    p.compactionEvent.findMany({ where: { runId }, orderBy: { idx: 'asc' }, select: { idx: true, step: true, tokensBefore: true, tokensAfter: true, agentIdx: true } }),
    p.approvalRequest.findMany({ where: { runId }, orderBy: { createdAt: 'asc' }, select: { step: true, callId: true, tool: true, status: true, createdAt: true, decidedAt: true } }),
  ]);
  return {
    modelId: run.modelId,
    durationMs: run.durationMs,
    model: model.map((m) => ({ index: Number(m.idx), step: Number(m.step), latencyMs: Number(m.latencyMs), inputTokens: m.inputTokens === null ? null : Number(m.inputTokens), outputTokens: m.outputTokens === null ? null : Number(m.outputTokens), cachedTokens: m.cachedTokens === null ? null : Number(m.cachedTokens), cacheWriteTokens: m.cacheWriteTokens === null ? null : Number(m.cacheWriteTokens), recorded: offsets(m.startMs, m.endMs), priced: m.costNote !== null, costUsd: m.costUsd === null ? null : Number(m.costUsd), agent: m.agentIdx === null ? 0 : Number(m.agentIdx) })),
    tools: tools.map((t) => ({ index: Number(t.idx), step: Number(t.step), name: t.name, latencyMs: Number(t.latencyMs), isError: Boolean(t.isError), blockedBy: t.blockedBy, executed: Boolean(t.executed), toolUseId: t.toolUseId, recorded: offsets(t.startMs, t.endMs), approvalWait: approvalOffsets(t.approvalWait), agent: t.agentIdx === null ? 0 : Number(t.agentIdx) })),
    guards: guards.filter((g) => g.guard !== MODEL_RETRY_GUARD && g.guard !== SPAN_STEP_GUARD).map((g) => ({ index: g.idx, step: g.step, guard: g.guard, reason: g.reason, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 })),
    spans: guards
      .filter((g) => g.guard === SPAN_STEP_GUARD)
      .map((g) => ({ index: g.idx, step: g.step, spanKind: g.reason, name: spanStepFromRow(g).name, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 })),
    retries: guards
      .filter((g) => g.guard === MODEL_RETRY_GUARD)
      .map((g) => {
        const r = retryFromRow(g);
        return { index: g.idx, step: g.step, attempt: r.attempt, reason: r.reason, delayMs: r.delayMs, recorded: offsets(g.startMs, g.endMs), agent: g.agentIdx ?? 0 };
      }),
    compactions: compactions.map((c) => ({ index: c.idx, step: c.step, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter, agent: c.agentIdx ?? 0 })),
    approvals,
  };
}
