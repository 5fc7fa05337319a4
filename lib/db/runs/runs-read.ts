import 'server-only';
/**
 * Reading one run: its summary, a page of its trajectory, what one model call saw, and the whole
 * run rebuilt for export. Replay pages through steps by range, so a 20,000-step run never loads at
 * once; large tool results are previews until asked for.
 */
import type { Redaction } from '../../governance';
import { isJsonObject, safeJsonParse, type JsonValue } from '../../harness';
import { GuardrailsSchema } from '../../harness';
import { z } from 'zod';
import { CallTimeSchema, TaintSchema, ToolProgressSchema, type ToolProgress, type Checkpoint, type Transition, type Exchange, type ModelInput, type RunResult, type Taint, type ToolRecord, type TrajectoryStep } from '../../harness';
import { callTimeOf } from './call-time-rows';
import { storedRedactions } from '../governance';
import { AgentTreeSchema, stepTreeOf, type AgentTree } from './agent-tree-rows';
import { agentsOf } from '../../harness';
import type { CompactionEvent, GuardEvent, ModelTurn, ToolCall } from '../generated/sqlite/client';
import { decodeMessage, parseStoredJson, skeletonRefs } from '../core';
import { getDb, type Database } from '../core';
import { DbError, InvalidInputError, NotFoundError } from '../core';
import { fromRanges } from './run-rows';
import { GUARDRAIL_GUARD, MODEL_RETRY_GUARD, guardrailFromRow, retryFromRow } from './retry-rows';
import { SPAN_STEP_GUARD, spanStepFromRow } from './span-step-rows';
import { TOOL_SESSION_GUARD, toolSessionFromRow } from './tool-session-rows';
import { json, RUN_TAGS_INCLUDE, sourceOf, stringList, toRunListItem } from './run-dto';
import { costUnreportedOf, usageDetailOf, usageEstimateOf } from './usage-rows';
import type { ModelInputDto, RunSummary, StepDto, StepPage, StepRange, StoredRun, TransitionDto } from './types';

/** Most trajectory entries one `getRunSteps` call returns. */
export const MAX_STEP_PAGE = 500;

/** The run's header, or null when there is no such run. */
export async function getRunSummary(id: string, db: Database = getDb()): Promise<RunSummary | null> {
  const row = await db.prisma.run.findUnique({ where: { id }, include: RUN_TAGS_INCLUDE });
  if (!row) return null;
  const blobs = await db.prisma.blob.findMany({ where: { hash: { in: [row.systemPromptHash, row.toolSpecsHash, ...(row.agentTreeHash ? [row.agentTreeHash] : [])] } } });
  const text = (hash: string) => blobs.find((b) => b.hash === hash)?.text ?? '';
  const tree = treeOf(row.agentTreeHash ? text(row.agentTreeHash) : null);
  // A run that lists no agents is one agent whose log is the run's: the header needs only its last
  // transition (the outcome); the whole log is the timeline's (run-timeline.ts), not read twice.
  const last = tree.agents.length === 0 ? await db.prisma.transition.findFirst({ where: { runId: id }, orderBy: { idx: 'desc' } }) : null;
  return {
    ...toRunListItem(row),
    agents: agentsOf({
      agents: tree.agents,
      transitions: last ? [{ step: last.step, from: last.fromState, to: last.toState, reason: last.reason } as Transition] : [],
      trajectory: [],
      usage: { modelCalls: row.modelCallCount, inputTokens: Number(row.inputTokens), outputTokens: Number(row.outputTokens), totalTokens: Number(row.totalTokens), perCall: [] },
      costEstimate: row.costKnown ? { usd: row.costUsd, note: row.costNote } : { usd: null, note: row.costNote, known: false },
      terminationReason: row.terminationReason as RunResult['terminationReason'],
      startedAt: row.startedAt.toISOString(),
      durationMs: row.durationMs,
    }).map((a, i) => (tree.agents.length === 0 && i === 0 ? { ...a, transitions: [], rollup: { ...a.rollup, toolCalls: row.toolCallCount } } : a)),
    setAside: tree.setAside,
    redactions: storedRedactions(row.redactions),
    datasetHash: row.datasetHash,
    finalAnswer: row.finalAnswer,
    config: json(row.config, 'config'),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    modelCallCount: row.modelCallCount,
    compactionCount: row.compactionCount,
    trajectoryLength: row.trajectoryLength,
    costNote: row.costNote,
    systemPrompt: text(row.systemPromptHash),
    toolSpecs: json(text(row.toolSpecsHash) || '[]', 'tool specs'),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The run's stored agent tree (empty when it lists no agents); a corrupt blob is a DbError. */
function treeOf(text: string | null): AgentTree {
  if (text === null || text === '') return { agents: [], setAside: [] };
  const parsed = AgentTreeSchema.safeParse(parseStoredJson(text, 'agent tree'));
  if (!parsed.success) throw new DbError('corrupt_row', `stored agent tree is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}

/** The run's header; throws NotFoundError when there is no such run. */
/** Where a run became tainted: the first tool result with prompt-injection signals, its tool and the finding (null: never). */
export interface RunTaint {
  step: number;
  /** The trajectory index of that tool call (replay's entry). */
  index: number;
  tool: string;
  detector: Taint['detector'];
  excerpt: string;
}

export async function getRunTaint(id: string, db: Database = getDb()): Promise<RunTaint | null> {
  const row = await db.prisma.toolCall.findFirst({ where: { runId: id, taint: { not: null } }, orderBy: { idx: 'asc' }, select: { idx: true, step: true, name: true, taint: true } });
  const taint = row ? taintOf(row.taint).taint : undefined;
  return row && taint ? { step: row.step, index: row.idx, tool: row.name, detector: taint.detector, excerpt: taint.excerpt } : null;
}

export async function getRunSummaryOrThrow(id: string, db: Database = getDb()): Promise<RunSummary> {
  const summary = await getRunSummary(id, db);
  if (!summary) throw new NotFoundError('run', id);
  return summary;
}

function modelTurnStep(r: ModelTurn): TrajectoryStep {
  const toolCalls = parseStoredJson(r.toolCalls, 'model turn tool calls');
  return {
    kind: 'model_turn',
    step: r.step,
    text: r.text,
    toolCalls: (Array.isArray(toolCalls) ? toolCalls : []) as Extract<TrajectoryStep, { kind: 'model_turn' }>['toolCalls'],
    stopReason: r.stopReason,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    ...usageEstimateOf(r.usageEstimate),
    latencyMs: r.latencyMs,
    ...(r.timeToFirstTokenMs !== null ? { timeToFirstTokenMs: r.timeToFirstTokenMs } : {}),
    contextTokensEstimate: r.contextTokensEstimate,
    ...(r.provider !== null ? { provider: r.provider } : {}),
    ...(r.finishReason !== null ? { finishReason: r.finishReason } : {}),
    ...(r.cachedTokens !== null ? { cachedTokens: r.cachedTokens } : {}),
    ...(r.cacheWriteTokens !== null ? { cacheWriteTokens: r.cacheWriteTokens } : {}),
    ...(r.providerId !== null ? { providerId: r.providerId } : {}),
    ...(r.model !== null ? { model: r.model } : {}),
    ...(r.costNote !== null ? { costUsd: r.costUsd, costNote: r.costNote } : {}),
    ...callTimeOf(r),
    ...stepTreeOf(r),
  };
}

function toolFields(r: ToolCall) {
  return {
    kind: 'tool_call' as const,
    step: r.step,
    toolUseId: r.toolUseId,
    name: r.name,
    arguments: json(r.arguments, 'tool arguments'),
    signature: r.signature,
    ...stepTreeOf(r),
  };
}

/** A stored taint finding; one in an unknown form is dropped rather than failing the run's page. */
function taintOf(text: string | null): { taint?: Taint } {
  if (text === null) return {};
  const parsed = TaintSchema.safeParse(json(text, 'taint'));
  return parsed.success ? { taint: parsed.data } : {};
}

function toolTail(r: ToolCall) {
  return {
    isError: r.isError,
    errorCode: r.errorCode,
    validationError: r.validationError,
    blockedBy: r.blockedBy,
    executed: r.executed,
    payloadChars: r.payloadChars,
    latencyMs: r.latencyMs,
    sanitized: r.sanitized,
    quarantinedLines: r.quarantinedLines,
    quarantinedText: stringList(r.quarantinedText, 'quarantined text'),
    rewrittenBy: stringList(r.rewrittenBy, 'rewritten by'),
    policy: r.policy === null ? null : (json(r.policy, 'tool policy') as ToolRecord['policy']),
    ...callTimeOf(r),
    ...(r.approvalWait !== null ? { approvalWait: CallTimeSchema.parse(json(r.approvalWait, 'approval wait')) } : {}),
    ...taintOf(r.taint),
    ...(r.schemaViolation !== null ? { schemaViolation: r.schemaViolation } : {}),
    ...progressOf(r.progress),
  };
}

/** A tool's stored progress notifications; a list in an unknown form is dropped rather than failing the run's page. */
function progressOf(text: string | null): { progress?: ToolProgress[] } {
  if (text === null) return {};
  const parsed = z.array(ToolProgressSchema).safeParse(json(text, 'tool progress'));
  return parsed.success && parsed.data.length > 0 ? { progress: parsed.data } : {};
}

const guardStep = (r: GuardEvent): TrajectoryStep =>
  r.guard === MODEL_RETRY_GUARD
    ? { ...retryFromRow(r), ...callTimeOf(r), ...stepTreeOf(r) }
    : r.guard === GUARDRAIL_GUARD
      ? (guardrailFromRow(r) ?? { kind: 'guard', step: r.step, guard: r.guard, reason: 'GUARDRAIL', detail: r.detail, ...stepTreeOf(r) })
      : r.guard === SPAN_STEP_GUARD
        ? { ...spanStepFromRow(r), ...callTimeOf(r), ...stepTreeOf(r) }
      : r.guard === TOOL_SESSION_GUARD
        ? { ...toolSessionFromRow(r), ...stepTreeOf(r) }
      : {
        kind: 'guard',
        step: r.step,
        guard: r.guard,
        reason: r.reason as Extract<TrajectoryStep, { kind: 'guard' }>['reason'],
        detail: r.detail,
        ...(r.errorKind !== null ? { errorKind: r.errorKind } : {}),
        ...callTimeOf(r),
        ...stepTreeOf(r),
      };

const compactionStep = (r: CompactionEvent): TrajectoryStep => ({
  kind: 'compaction',
  step: r.step,
  tokensBefore: r.tokensBefore,
  tokensAfter: r.tokensAfter,
  resultsSummarised: r.resultsSummarised,
  ...stepTreeOf(r),
});

function validateRange(range: StepRange): { field: 'idx' | 'step'; gte: number; lte: number } {
  const [field, from, to, inclusive] =
    'fromIndex' in range ? (['idx', range.fromIndex, range.toIndex, false] as const) : (['step', range.fromStep, range.toStep, true] as const);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from)
    throw new InvalidInputError('range', `step range must be non-negative integers with from <= to, got ${from}..${to}`);
  return { field, gte: from, lte: inclusive ? to : to - 1 };
}

/**
 * The steps whose transitions belong on a page. By step range: the range (cut at the last entry
 * when the page was capped). By index: the entries' steps, widened to the start of the run on its
 * first page (PLAN → CALL_MODEL has step 0, before any entry) and to the end on its last, so
 * paging through a run yields every transition; a step split across pages repeats on both.
 */
function transitionSteps(range: StepRange, items: StepDto[], fetched: number, nextIndex: number | null): { gte?: number; lte?: number } {
  const first = items[0];
  const last = items[items.length - 1];
  if ('fromStep' in range) return { gte: range.fromStep, lte: nextIndex !== null && last ? last.step : range.toStep };
  if (!first || !last) return range.fromIndex === 0 ? {} : { gte: 1, lte: 0 };
  const reachedEnd = nextIndex === null && fetched < range.toIndex - range.fromIndex;
  return { ...(range.fromIndex === 0 ? {} : { gte: first.step }), ...(reachedEnd ? {} : { lte: last.step }) };
}

/**
 * A page of the run's trajectory: entries by position `[fromIndex, toIndex)` or by harness step
 * (inclusive), at most MAX_STEP_PAGE of them (`nextIndex` says where a capped page stops), plus
 * the transitions of the page's steps (see transitionSteps). Tool results come as previews
 * (`getToolResultAt`).
 */
export async function getRunSteps(id: string, range: StepRange, db: Database = getDb()): Promise<StepPage> {
  const { field, gte, lte } = validateRange(range);
  const where = { runId: id, [field]: { gte, lte } };
  const page = { where, orderBy: { idx: 'asc' as const }, take: MAX_STEP_PAGE + 1 };
  const p = db.prisma;
  const [turns, tools, guards, compactions] = await Promise.all([
    p.modelTurn.findMany(page),
    p.toolCall.findMany({ ...page, include: { result: { select: { chars: true } } } }),
    p.guardEvent.findMany(page),
    p.compactionEvent.findMany(page),
  ]);
  const merged: StepDto[] = [
    ...turns.map((r) => ({ index: r.idx, ...modelTurnStep(r) }) as StepDto),
    ...tools.map(
      (r): StepDto => ({
        index: r.idx,
        ...toolFields(r),
        result: { hash: r.resultHash, chars: r.result.chars, preview: r.resultPreview, truncated: r.resultPreview.length < r.result.chars },
        ...toolTail(r),
        hasMedia: r.mediaHash !== null,
      }),
    ),
    ...guards.map((r) => ({ index: r.idx, ...guardStep(r) }) as StepDto),
    ...compactions.map((r) => ({ index: r.idx, ...compactionStep(r) }) as StepDto),
  ].sort((a, b) => a.index - b.index);
  if (merged.length === 0 && !(await p.run.findUnique({ where: { id }, select: { id: true } }))) throw new NotFoundError('run', id);
  const items = merged.slice(0, MAX_STEP_PAGE);
  const nextIndex = merged.length > MAX_STEP_PAGE ? merged[MAX_STEP_PAGE]!.index : null;
  const rows = await p.transition.findMany({ where: { runId: id, step: transitionSteps(range, items, merged.length, nextIndex) }, orderBy: { idx: 'asc' } });
  const transitions: TransitionDto[] = rows.map((t) => ({ index: t.idx, step: t.step, from: t.fromState, to: t.toState, reason: t.reason }));
  return { items, transitions, nextIndex };
}

/** The full result of the tool call at trajectory position `index`. */
export async function getToolResultAt(id: string, index: number, db: Database = getDb()): Promise<JsonValue> {
  const row = await db.prisma.toolCall.findUnique({ where: { runId_idx: { runId: id, idx: index } }, include: { result: true } });
  if (!row) throw new NotFoundError('tool call', `${id}#${index}`);
  return json(row.result.text, 'tool result');
}

/** The non-text parts of the tool call at trajectory position `index` (images, audio, resources), whole; [] when none. */
export async function getToolMediaAt(id: string, index: number, db: Database = getDb()): Promise<JsonValue[]> {
  const row = await db.prisma.toolCall.findUnique({ where: { runId_idx: { runId: id, idx: index } }, select: { mediaHash: true } });
  if (!row) throw new NotFoundError('tool call', `${id}#${index}`);
  if (row.mediaHash === null) return [];
  const media = json(await getBlobTextOrThrow(row.mediaHash, db), 'tool media');
  return Array.isArray(media) ? media : [];
}

/** The text of a stored blob by hash. */
export async function getBlobTextOrThrow(hash: string, db: Database = getDb()): Promise<string> {
  const row = await db.prisma.blob.findUnique({ where: { hash } });
  if (!row) throw new NotFoundError('blob', hash);
  return row.text;
}

function parseRanges(text: string): Array<[number, number]> | null {
  const value = parseStoredJson(text, 'message ranges');
  if (value === null) return null;
  return (Array.isArray(value) ? value : []).filter(
    (r): r is [number, number] => Array.isArray(r) && typeof r[0] === 'number' && typeof r[1] === 'number',
  );
}

/** Fetches message skeletons by log position and the part blobs they refer to; returns a resolver. */
async function loadMessages(db: Database, runId: string, seqs: number[]): Promise<(seq: number) => JsonValue> {
  const distinct = [...new Set(seqs)];
  const skeletons = new Map<number, JsonValue>();
  const CHUNK = 5000;
  for (let i = 0; i < distinct.length; i += CHUNK) {
    const rows = await db.prisma.runMessage.findMany({
      where: { runId, seq: { in: distinct.slice(i, i + CHUNK) } },
      include: { blob: { select: { text: true } } },
    });
    for (const r of rows) skeletons.set(r.seq, parseStoredJson(r.blob.text, 'message'));
  }
  const refs = [...new Set([...skeletons.values()].flatMap(skeletonRefs))];
  const parts = new Map<string, string>();
  for (let i = 0; i < refs.length; i += CHUNK) {
    const rows = await db.prisma.blob.findMany({ where: { hash: { in: refs.slice(i, i + CHUNK) } } });
    for (const r of rows) parts.set(r.hash, r.text);
  }
  return (seq) => {
    const skeleton = skeletons.get(seq);
    if (skeleton === undefined) throw new NotFoundError('message', `${runId}@${seq}`);
    return decodeMessage(skeleton, (hash) => {
      const text = parts.get(hash);
      if (text === undefined) throw new NotFoundError('blob', hash);
      return text;
    });
  };
}

/** What model call `callIndex` of the run saw, messages rebuilt from blobs. */
export async function getModelInputAt(id: string, callIndex: number, db: Database = getDb()): Promise<ModelInputDto> {
  const row = await db.prisma.modelCall.findUnique({ where: { runId_callIndex: { runId: id, callIndex } } });
  if (!row) throw new NotFoundError('model call', `${id}#${callIndex}`);
  const seqs = fromRanges(parseRanges(row.messageRanges) ?? []);
  const resolve = await loadMessages(db, id, seqs);
  return {
    callIndex,
    step: row.step,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    messages: seqs.map(resolve),
  };
}

/**
 * The whole run rebuilt exactly as saved (export, tests). Loads everything: not for replay pages.
 * `modelInputs: false` skips the messages each call saw (the bulk of a long run), leaving it empty.
 */
export async function getRunOrThrow(id: string, db: Database = getDb(), options: { modelInputs?: boolean } = {}): Promise<StoredRun> {
  const p = db.prisma;
  const row = await p.run.findUnique({ where: { id } });
  if (!row) throw new NotFoundError('run', id);
  const byIdx = { where: { runId: id }, orderBy: { idx: 'asc' as const } };
  const [turns, tools, guards, compactions, transitions, calls, blobs] = await Promise.all([
    p.modelTurn.findMany(byIdx),
    p.toolCall.findMany({ ...byIdx, include: { result: { select: { text: true } } } }),
    p.guardEvent.findMany(byIdx),
    p.compactionEvent.findMany(byIdx),
    p.transition.findMany(byIdx),
    p.modelCall.findMany({ where: { runId: id }, orderBy: { callIndex: 'asc' } }),
    p.blob.findMany({ where: { hash: { in: [row.systemPromptHash, row.toolSpecsHash, ...(row.checkpointHash ? [row.checkpointHash] : []), ...(row.agentTreeHash ? [row.agentTreeHash] : [])] } } }),
  ]);
  const mediaHashes = tools.flatMap((t) => (t.mediaHash !== null ? [t.mediaHash] : []));
  const mediaBlobs = new Map(mediaHashes.length ? (await p.blob.findMany({ where: { hash: { in: mediaHashes } } })).map((b) => [b.hash, b.text]) : []);
  const mediaOf = (hash: string | null) => (hash !== null && mediaBlobs.has(hash) ? { media: json(mediaBlobs.get(hash)!, 'tool media') as ToolRecord['media'] } : {});
  const recordedCalls = calls.filter((c) => c.requestDigest !== null && c.responseHash !== null && c.step !== null);
  const responses = recordedCalls.length
    ? new Map(
        (
          await p.blob.findMany({
            where: { hash: { in: recordedCalls.flatMap((c) => [c.responseHash!, ...(c.rawResponseHash ? [c.rawResponseHash] : [])]) } },
          })
        ).map((b) => [b.hash, b.text]),
      )
    : new Map<string, string>();
  const exchanges: Exchange[] = recordedCalls.map((c) => ({
    callIndex: c.callIndex,
    step: c.step!,
    requestDigest: c.requestDigest!,
    response: json(responses.get(c.responseHash!) ?? 'null', 'recorded response'),
    ...(c.rawResponseHash ? { raw: json(responses.get(c.rawResponseHash) ?? 'null', 'recorded provider response') } : {}),
  }));
  const trajectory = [
    ...turns.map((r) => [r.idx, modelTurnStep(r)] as const),
    ...tools.map(
      (r) =>
        [r.idx, { ...toolFields(r), resultContent: json(r.result.text, 'tool result'), ...toolTail(r), ...mediaOf(r.mediaHash) } as TrajectoryStep] as const,
    ),
    ...guards.map((r) => [r.idx, guardStep(r)] as const),
    ...compactions.map((r) => [r.idx, compactionStep(r)] as const),
  ]
    .sort((a, b) => a[0] - b[0])
    .map(([, step]) => step);

  const modelInputs: ModelInput[] = [];
  if (options.modelInputs !== false) {
    const callRanges = calls.map((c) => parseRanges(c.messageRanges));
    const resolve = await loadMessages(db, id, callRanges.flatMap((r) => (r ? fromRanges(r) : [])));
    calls.forEach((c, i) => {
      const ranges = callRanges[i];
      if (ranges && c.step !== null) modelInputs.push({ step: c.step, messages: fromRanges(ranges).map(resolve) });
    });
  }
  const text = (hash: string) => blobs.find((b) => b.hash === hash)?.text ?? '';
  const tree = treeOf(row.agentTreeHash ? text(row.agentTreeHash) : null);
  const weaknesses = stringList(row.weaknesses, 'weaknesses');
  const config = json(row.config, 'config');
  // The guardrails a run ran under are recorded in its configuration.
  const guardrails = isJsonObject(config) && config.guardrails !== undefined ? GuardrailsSchema.safeParse(config.guardrails) : null;
  const run: RunResult = {
    runId: row.harnessRunId,
    caseId: row.caseId,
    query: row.query,
    finalAnswer: row.finalAnswer,
    terminationReason: row.terminationReason as RunResult['terminationReason'],
    trajectory,
    transitions: transitions.map((t) => ({
      step: t.step,
      from: t.fromState as RunResult['transitions'][number]['from'],
      to: t.toState as RunResult['transitions'][number]['to'],
      reason: t.reason,
    })),
    usage: {
      modelCalls: row.modelCallCount,
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      totalTokens: Number(row.totalTokens),
      ...(row.cachedTokens > 0n ? { cachedTokens: Number(row.cachedTokens) } : {}),
      ...cacheWritesOf(trajectory),
      ...usageDetailOf(row),
      // A run with unreported calls keeps their null usage: its first modelCallCount calls are its turns
      // (a failed last call has a row without usage). Older runs: calls without usage had no entry.
      perCall:
        row.unreportedCalls > 0
          ? calls.slice(0, row.modelCallCount).map((c) => ({ inputTokens: c.inputTokens, outputTokens: c.outputTokens }))
          : calls
              .filter((c) => c.inputTokens !== null && c.outputTokens !== null)
              .map((c) => ({ inputTokens: c.inputTokens!, outputTokens: c.outputTokens! })),
    },
    costEstimate: {
      ...(row.costKnown ? { usd: row.costUsd, note: row.costNote } : { usd: null, note: row.costNote, known: false }),
      ...costUnreportedOf(row),
    },
    steps: row.steps,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    mode: row.mode as RunResult['mode'],
    modelId: row.modelId,
    weaknesses,
    ...(guardrails?.success ? { guardrails: guardrails.data } : {}),
    systemPrompt: text(row.systemPromptHash),
    toolSpecs: json(text(row.toolSpecsHash) || '[]', 'tool specs') as RunResult['toolSpecs'],
    modelInputs,
    ...(exchanges.length > 0 ? { exchanges } : {}),
    status: row.status as RunResult['status'],
    checkpoint: row.checkpointHash ? (json(text(row.checkpointHash), 'checkpoint') as Checkpoint) : null,
    ...(tree.agents.length > 0 ? { agents: tree.agents } : {}),
    ...(tree.setAside.length > 0 ? { setAside: tree.setAside } : {}),
  };
  return {
    id: row.id,
    meta: {
      datasetName: row.datasetName,
      datasetHash: row.datasetHash,
      transport: row.transport,
      category: row.category,
      suiteRunId: row.suiteRunId,
      config,
      setting: row.setting,
      tenant: row.tenant,
      governed: row.governed,
      source: sourceOf(row.source),
    },
    run,
  };
}

/** The run's cache-write tokens: the sum of its turns' (stored per turn), or nothing when none wrote any. */
function cacheWritesOf(trajectory: readonly TrajectoryStep[]): { cacheWriteTokens?: number } {
  let total = 0;
  for (const s of trajectory) if (s.kind === 'model_turn' && s.cacheWriteTokens) total += s.cacheWriteTokens;
  return total > 0 ? { cacheWriteTokens: total } : {};
}

/** What an online evaluator reads of a run (issue 37): its question, answer, cost, duration, tool calls and guard steps. */
export type EvaluatedRun = Pick<RunResult, 'query' | 'finalAnswer' | 'durationMs' | 'costEstimate' | 'trajectory'>;

/**
 * A run as online evaluators read it, in three queries instead of the whole run (getRunOrThrow loads
 * every turn, message and blob): the watch job reads one per finished run, beside ingest. Null: gone.
 */
export async function getRunForEvaluators(id: string, db: Database = getDb()): Promise<EvaluatedRun | null> {
  return (await getRunsForEvaluators([id], db)).get(id) ?? null;
}

/**
 * Runs as online evaluators read them, by id, in three queries for the whole batch (a watch drain or
 * a backfill chunk: three queries a run were most of the evaluators' cost beside ingest). A run gone
 * meanwhile is not in the map.
 */
export async function getRunsForEvaluators(ids: readonly string[], db: Database = getDb()): Promise<Map<string, EvaluatedRun>> {
  const out = new Map<string, EvaluatedRun>();
  if (ids.length === 0) return out;
  const p = db.prisma;
  const runIds = [...new Set(ids)];
  const byIdx = { where: { runId: { in: runIds } }, orderBy: [{ runId: 'asc' as const }, { idx: 'asc' as const }] };
  const [rows, tools, guards] = await Promise.all([
    p.run.findMany({ where: { id: { in: runIds } }, select: { id: true, query: true, finalAnswer: true, durationMs: true, costKnown: true, costUsd: true, costNote: true, unreportedCalls: true } }),
    p.toolCall.findMany({ ...byIdx, include: { result: { select: { text: true } } } }),
    p.guardEvent.findMany(byIdx),
  ]);
  const steps = new Map<string, Array<readonly [number, TrajectoryStep]>>();
  const add = (runId: string, idx: number, step: TrajectoryStep) => {
    const list = steps.get(runId);
    if (list) list.push([idx, step]);
    else steps.set(runId, [[idx, step]]);
  };
  for (const r of tools) add(r.runId, r.idx, { ...toolFields(r), resultContent: json(r.result.text, 'tool result'), ...toolTail(r) } as TrajectoryStep);
  for (const r of guards) add(r.runId, r.idx, guardStep(r));
  for (const row of rows) {
    out.set(row.id, {
      query: row.query,
      finalAnswer: row.finalAnswer,
      durationMs: row.durationMs,
      costEstimate: { ...(row.costKnown ? { usd: row.costUsd, note: row.costNote } : { usd: null, note: row.costNote, known: false }), ...costUnreportedOf(row) },
      trajectory: (steps.get(row.id) ?? []).sort((a, b) => a[0] - b[0]).map(([, step]) => step),
    });
  }
  return out;
}
