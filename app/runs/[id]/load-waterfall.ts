import 'server-only';
/**
 * A run's waterfall entries (lib/charts/waterfall.ts) from what it stored: a model call's cost is its
 * tokens at the run's model price (config/prices.json); the fake model costs nothing; a model without
 * a price has an unknown cost, never 0. An approval wait lasts from the request to its decision (both
 * recorded); a pending one has no end yet, so its length is unknown. The fake model's latency is
 * scripted, not waited for: it is the entry's `simulatedMs`, and the bar's length is the wall clock the
 * call took (its recorded start to end; unknown when not recorded), so a bar and its label agree.
 */
import { runWaterfallRows, type WaterfallRowsOptions } from '@/lib/db/runs/run-waterfall';
import type { Database } from '@/lib/db/core/client';
import type { WaterfallEntry } from '@/lib/charts/waterfall';
import { FAKE_MODEL } from '@/lib/harness/config';
import { priceFor, usdAt, type Price } from '@/lib/models/prices';
import { ConfigError } from '@/lib/harness/errors';

/** The model's price, or null: no price, or a model id that names no provider (an imported trace's `gpt-4o-mini`). */
function priceOf(modelId: string): Price | null {
  try {
    return priceFor(modelId);
  } catch (err) {
    if (err instanceof ConfigError) return null;
    throw err;
  }
}

export async function loadWaterfall(runId: string, tenant: string, db?: Database, options?: WaterfallRowsOptions): Promise<{ entries: WaterfallEntry[]; runDurationMs: number } | null> {
  const rows = await runWaterfallRows(runId, tenant, db, options);
  if (!rows) return null;
  const fake = rows.modelId === FAKE_MODEL || rows.modelId.startsWith(`${FAKE_MODEL}`);
  const price = fake ? null : priceOf(rows.modelId);
  const entries: WaterfallEntry[] = [];
  for (const m of rows.model) {
    entries.push({
      index: m.index,
      step: m.step,
      kind: 'model',
      label: `model call ${m.ordinal}`,
      durationMs: fake ? (m.recorded ? m.recorded.endMs - m.recorded.startMs : null) : m.latencyMs,
      ...(fake ? { simulatedMs: m.latencyMs } : {}),
      ...(m.timeToFirstTokenMs !== null ? { timeToFirstTokenMs: m.timeToFirstTokenMs } : {}),
      // Usage the provider did not report stays unknown: no tokens, no cost (the bar says "not reported").
      tokens: m.inputTokens === null || m.outputTokens === null ? null : m.inputTokens + m.outputTokens,
      // A call priced on its own (an imported trace's) has its stored cost, the one the header sums.
      costUsd: m.priced
        ? m.costUsd
        : m.inputTokens === null || m.outputTokens === null
          ? null
          : fake
            ? 0
            : price
              ? usdAt(price, { inputTokens: m.inputTokens, outputTokens: m.outputTokens, cachedTokens: m.cachedTokens ?? 0, cacheWriteTokens: m.cacheWriteTokens ?? 0 })
              : null,
      error: false,
      recorded: m.recorded,
      agent: m.agent,
    });
  }
  for (const t of rows.tools) {
    entries.push({
      index: t.index,
      step: t.step,
      kind: 'tool',
      label: t.blockedBy ? `${t.name} (blocked by ${t.blockedBy})` : t.name,
      // A call that never ran (blocked, invalid) took no tool time.
      durationMs: t.executed ? t.latencyMs : 0,
      tokens: null,
      costUsd: null,
      error: t.isError,
      recorded: t.recorded,
      agent: t.agent,
    });
  }
  for (const r of rows.retries) entries.push({ index: r.index, step: r.step, kind: 'retry_wait', label: `retry ${r.attempt} after ${r.reason}`, durationMs: r.delayMs, tokens: null, costUsd: null, error: true, recorded: r.recorded, agent: r.agent });
  for (const g of rows.guards) entries.push({ index: g.index, step: g.step, kind: 'guard', label: `${g.guard}: ${g.reason}`, durationMs: 0, tokens: null, costUsd: null, error: true, recorded: g.recorded, agent: g.agent });
  // An imported trace's other spans (chain, retriever, embedding, …) as what they are, with their recorded times.
  for (const sp of rows.spans)
    entries.push({ index: sp.index, step: sp.step, kind: 'span', label: `${sp.spanKind}: ${sp.name}`, durationMs: sp.recorded ? sp.recorded.endMs - sp.recorded.startMs : null, tokens: null, costUsd: null, error: false, recorded: sp.recorded, agent: sp.agent });
  for (const c of rows.compactions) entries.push({ index: c.index, step: c.step, kind: 'compaction', label: `compaction ${c.tokensBefore} → ${c.tokensAfter} tokens`, durationMs: 0, tokens: null, costUsd: null, error: false, agent: c.agent });
  for (const a of rows.approvals) {
    // Just before the call it gated (or at the end of its step when that call is not stored).
    const call = rows.tools.find((t) => t.toolUseId === a.callId);
    const lastOfStep = Math.max(-1, ...entries.filter((x) => x.step === a.step).map((x) => x.index));
    entries.push({
      index: call ? call.index - 0.5 : lastOfStep + 0.5,
      step: a.step,
      kind: 'approval_wait',
      label: `approval of ${a.tool} (${a.status})`,
      durationMs: a.decidedAt ? a.decidedAt.getTime() - a.createdAt.getTime() : null,
      tokens: null,
      costUsd: null,
      error: a.status === 'denied' || a.status === 'expired',
      recorded: call?.approvalWait ?? null,
    });
  }
  return { entries: entries.sort((x, y) => x.index - y.index), runDurationMs: rows.durationMs };
}
