import 'server-only';
/**
 * The skeleton of a run for replay, in four narrow queries: every transition, each model call's
 * token usage, tool calls per step, and the guard and compaction events. No messages, arguments or
 * results — the replay fetches those for the step on screen. A 20,000-step run's skeleton is a few
 * tens of milliseconds here, where paging through getRunSteps took over half a second.
 */
import { getDb, type Database } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { GUARDRAIL_GUARD, guardrailFromRow } from './retry-rows';
import { TOOL_SESSION_GUARD, toolSessionFromRow } from './tool-session-rows';

export interface TimelineDto {
  transitions: { index: number; step: number; from: string; to: string; reason: string }[];
  /** Null tokens: not reported. */
  calls: { step: number; inputTokens: number | null; outputTokens: number | null }[];
  events: (
    | { kind: 'guard'; index: number; step: number; guard: string; reason: string; detail: string }
    | { kind: 'compaction'; index: number; step: number; tokensBefore: number; tokensAfter: number; resultsSummarised: number }
    /** A call a run guard or the policy refused while the run went on (grounded_write, a denial). */
    | { kind: 'blocked'; index: number; step: number; guard: string; tool: string; code: string }
    /** A guardrail event other than a passed check (a refusal, a violation, a retry, a finding, the outcome). */
    | { kind: 'guardrail'; index: number; step: number; guardrail: string; action: string; detail: string }
    /** A new session the executor opened with a tool server that had ended the old one (the run went on). */
    | { kind: 'tool_session'; index: number; step: number; server: string; tool: string; reason: string; detail: string }
  )[];
}

type TransitionRow = { idx: number; step: number; fromState: string; toState: string; reason: string };

/**
 * The rows of `inner` (a SELECT of at least `columns`) in `order` (one of them), read as one JSON text:
 * Prisma maps every value of a raw query's result one by one, and a 20,000-step run's 40,000 rows of
 * its skeleton (or its waterfall's 20,000 rows of a dozen columns) were most of their read; one text
 * per query is parsed at native speed. Values as JSON has them: numbers, strings, null; booleans as
 * the database gives them (SQLite 0/1), as the typed rows had them.
 */
export async function jsonRows<T>(db: Database, columns: readonly string[], inner: Sql.Sql, order: string): Promise<T[]> {
  const list = Sql.raw(columns.map((c) => `q."${c}"`).join(', '));
  const by = Sql.raw(`q."${order}"`);
  const rows =
    db.provider === 'postgres'
      ? await db.prisma.$queryRaw<{ rows: string | null }[]>`SELECT CAST(json_agg(json_build_array(${list}) ORDER BY ${by}) AS TEXT) AS "rows" FROM (${inner}) AS q`
      : await db.prisma.$queryRaw<{ rows: string | null }[]>`SELECT json_group_array(json_array(${list}) ORDER BY ${by}) AS "rows" FROM (${inner}) AS q`;
  const arrays = JSON.parse(rows[0]?.rows ?? '[]') as unknown[][];
  return arrays.map((values) => Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null])) as T);
}

const TRANSITION_COLUMNS = ['idx', 'step', 'fromState', 'toState', 'reason'];

export async function getRunTimeline(runId: string, db: Database = getDb()): Promise<TimelineDto> {
  const [transitions, rest] = await Promise.all([
    jsonRows<TransitionRow>(db, TRANSITION_COLUMNS, Sql.sql`SELECT "idx", "step", "fromState", "toState", "reason" FROM "Transition" WHERE "runId" = ${runId}`, 'idx'),
    callsAndEvents(runId, db, null),
  ]);
  return timelineOf(transitions, ...rest);
}

/** A run's skeleton cut after its first transitions, and the size of the whole. */
export interface TimelineHead {
  /** The first transitions, the model calls and events of their steps (the whole skeleton when `rest` is null). */
  head: TimelineDto;
  /** How many transitions and model calls the whole skeleton has, when the head is not all of it. */
  rest: { transitions: number; calls: number } | null;
}

/**
 * The first `limit` transitions of a run's skeleton with the calls and events of the steps they reach
 * (the replay page sends these and fetches the rest after it: a 20,000-step run's whole skeleton is
 * 40,000 transitions and calls read and sent), and how large the whole is. A run of at most `limit`
 * transitions comes whole.
 */
export async function getRunTimelineHead(runId: string, limit: number, db: Database = getDb()): Promise<TimelineHead> {
  const p = db.prisma;
  const take = Math.max(1, Math.trunc(limit));
  const rows = await p.$queryRaw<TransitionRow[]>`
      SELECT "idx", "step", "fromState", "toState", "reason" FROM "Transition" WHERE "runId" = ${runId} ORDER BY "idx" LIMIT ${take + 1}`;
  if (rows.length <= take) return { head: timelineOf(rows, ...(await callsAndEvents(runId, db, null))), rest: null };
  const head = rows.slice(0, take);
  const lastStep = Number(head[head.length - 1]!.step);
  const [[turns, guards, compactions, blocked], [counts]] = await Promise.all([
    callsAndEvents(runId, db, lastStep),
    p.$queryRaw<{ transitions: number | bigint; calls: number | bigint }[]>`
      SELECT (SELECT COUNT(*) FROM "Transition" WHERE "runId" = ${runId}) AS "transitions", (SELECT COUNT(*) FROM "ModelTurn" WHERE "runId" = ${runId}) AS "calls"`,
  ]);
  return { head: timelineOf(head, turns, guards, compactions, blocked), rest: { transitions: Number(counts!.transitions), calls: Number(counts!.calls) } };
}

/** Each model call's tokens and the guard, compaction and blocked-call rows of the run (of steps up to `maxStep` when given). */
async function callsAndEvents(runId: string, db: Database, maxStep: number | null) {
  const p = db.prisma;
  const upTo = maxStep === null ? Sql.empty : Sql.sql` AND "step" <= ${maxStep}`;
  const steps = maxStep === null ? {} : { step: { lte: maxStep } };
  return Promise.all([
    // The long list as one JSON text: the typed query's row mapping costs more than the query here.
    jsonRows<{ step: number; inputTokens: number | null; outputTokens: number | null }>(
      db,
      ['step', 'inputTokens', 'outputTokens', 'idx'],
      Sql.sql`SELECT "idx", "step", "inputTokens", "outputTokens" FROM "ModelTurn" WHERE "runId" = ${runId}${upTo}`,
      'idx',
    ),
    p.guardEvent.findMany({ where: { runId, ...steps }, orderBy: { idx: 'asc' } }),
    p.compactionEvent.findMany({ where: { runId, ...steps }, orderBy: { idx: 'asc' } }),
    p.toolCall.findMany({
      where: { runId, blockedBy: { not: null }, ...steps },
      select: { idx: true, step: true, name: true, blockedBy: true, errorCode: true },
      orderBy: { idx: 'asc' },
    }),
  ]);
}

function timelineOf(transitions: TransitionRow[], ...[turns, guards, compactions, blocked]: Awaited<ReturnType<typeof callsAndEvents>>): TimelineDto {
  const events: TimelineDto['events'] = [
    ...guards
      .filter((g) => g.guard !== GUARDRAIL_GUARD && g.guard !== TOOL_SESSION_GUARD)
      .map((g) => ({ kind: 'guard' as const, index: g.idx, step: g.step, guard: g.guard, reason: g.reason, detail: g.detail })),
    ...guards
      .filter((g) => g.guard === TOOL_SESSION_GUARD)
      .map((g) => {
        const e = toolSessionFromRow(g);
        return { kind: 'tool_session' as const, index: g.idx, step: g.step, server: e.server, tool: e.name, reason: e.reason, detail: e.detail };
      }),
    ...guards
      .filter((g) => g.guard === GUARDRAIL_GUARD && g.reason !== 'passed')
      .map((g) => {
        const e = guardrailFromRow(g);
        return { kind: 'guardrail' as const, index: g.idx, step: g.step, guardrail: e?.guardrail ?? 'unknown', action: g.reason, detail: e?.detail ?? '' };
      }),
    ...compactions.map((c) => ({
      kind: 'compaction' as const,
      index: c.idx,
      step: c.step,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
      resultsSummarised: c.resultsSummarised,
    })),
    ...blocked.map((b) => ({ kind: 'blocked' as const, index: b.idx, step: b.step, guard: b.blockedBy ?? '', tool: b.name, code: b.errorCode ?? '' })),
  ].sort((a, b) => a.index - b.index);
  return {
    transitions: transitions.map((t) => ({ index: Number(t.idx), step: Number(t.step), from: t.fromState, to: t.toState, reason: t.reason })),
    calls: turns.map((c) => ({ step: Number(c.step), inputTokens: c.inputTokens === null ? null : Number(c.inputTokens), outputTokens: c.outputTokens === null ? null : Number(c.outputTokens) })),
    events,
  };
}
