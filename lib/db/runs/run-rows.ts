/**
 * Turns one RunResult into the rows that store it (pure; no database access). Tool results,
 * prompts, tool specs and message skeletons go to the shared BlobSet, so a payload repeated across
 * steps, model calls or runs is one blob. Each model call's message list is stored as ranges over
 * the run's message log, where every distinct message appears once: consecutive calls that repeat
 * the conversation add only their new messages.
 */
import type { Prisma } from '../generated/sqlite/client';
import { RunResultSchema, type RunResult } from '../../harness';
import type { JsonValue } from '../../harness';
import { BlobSet, encodeMessage } from '../core';
import { withTimeAndTree } from './call-time-rows';
import { agentTreeOf, runAgentRows, stepTreeColumns } from './agent-tree-rows';
import { GUARDRAIL_GUARD, MODEL_RETRY_GUARD, retryDetail } from './retry-rows';
import { SPAN_STEP_GUARD, spanStepDetail } from './span-step-rows';
import { TOOL_SESSION_GUARD, toolSessionDetail } from './tool-session-rows';
import { InvalidInputError } from '../core';
import type { SaveRunMeta } from './types';
import { DEFAULT_TENANT, type Redactor } from '../../governance';
import { RunTagsSchema } from '../../eval';
import { redactRun } from '../governance';
import { searchBody } from './run-search';
import { usageDetailColumns } from './usage-rows';

/** The guard names of a stored configuration's `guards` array (none when absent). */
function configuredGuards(config: unknown): string[] {
  const guards = config && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>).guards : undefined;
  return Array.isArray(guards) ? [...new Set(guards.filter((g): g is string => typeof g === 'string'))].sort() : [];
}

/** Characters of a tool result's JSON kept inline for replay lists. */
export const RESULT_PREVIEW_CHARS = 400;

export interface RunRows {
  run: Prisma.RunCreateManyInput;
  flags: Prisma.RunFlagCreateManyInput[];
  transitions: Prisma.TransitionCreateManyInput[];
  modelTurns: Prisma.ModelTurnCreateManyInput[];
  toolCalls: Prisma.ToolCallCreateManyInput[];
  guards: Prisma.GuardEventCreateManyInput[];
  compactions: Prisma.CompactionEventCreateManyInput[];
  modelCalls: Prisma.ModelCallCreateManyInput[];
  messages: Prisma.RunMessageCreateManyInput[];
  blobRefs: Prisma.RunBlobRefCreateManyInput[];
  /** The run's search text (one row; the database indexes it). */
  search: Prisma.RunSearchCreateManyInput;
  /** The run guards its configuration enabled. */
  guardsOn: Prisma.RunGuardOnCreateManyInput[];
  /** One row per agent (agentsOf: `stockroom` for a run that lists none). */
  agents: Prisma.RunAgentCreateManyInput[];
  /** One row per tag it was started or traced with (issue 37). */
  tags: Prisma.RunTagCreateManyInput[];
}

/** A run's tag rows, in their one form (lib/eval/run-tags.ts); a bad tag is an InvalidInputError naming `tags`. */
function runTagRows(meta: SaveRunMeta, id: string): Prisma.RunTagCreateManyInput[] {
  const parsed = RunTagsSchema.safeParse(meta.tags ?? []);
  if (!parsed.success) throw new InvalidInputError('tags', parsed.error.issues[0]?.message ?? 'invalid tags');
  const tenant = meta.tenant ?? DEFAULT_TENANT;
  return parsed.data.map((tag) => ({ runId: id, tenant, tag }));
}

/** The canonical setting label of a set of weakness flags: `none`, or sorted flags joined by `+`. */
export function settingOf(weaknesses: readonly string[]): string {
  const flags = [...new Set(weaknesses)].sort();
  return flags.length === 0 ? 'none' : flags.join('+');
}

/** Run-length encodes message-log positions into `[start, end)` ranges. */
export function toRanges(seqs: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const seq of seqs) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === seq) last[1] = seq + 1;
    else ranges.push([seq, seq + 1]);
  }
  return ranges;
}

/** Expands ranges back into message-log positions, in order. */
export function fromRanges(ranges: ReadonlyArray<readonly [number, number]>): number[] {
  const out: number[] = [];
  for (const [start, end] of ranges) for (let s = start; s < end; s++) out.push(s);
  return out;
}

function parseStartedAt(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidInputError('startedAt', `run startedAt is not a date: '${value}'`);
  return date;
}

/** Runs buildRunRows does not check again: built by typed code from input already validated (builtRun). */
const checkedRuns = new WeakSet<object>();

/**
 * Marks a run made by the project's own typed code from input it validated field by field (the OTLP
 * import: span-record.ts checks every value it reads, numbers finite, text storable), so
 * buildRunRows does not walk it with RunResultSchema again: the schema would re-check what the
 * types already guarantee, ~15 ms of CPU per 1,000 imported spans (issue 36). Untrusted runs (a
 * client's, a file's) are still parsed. A marked run is not changed afterwards.
 */
export function builtRun<T extends RunResult>(run: T): T {
  checkedRuns.add(run);
  return run;
}

/**
 * Builds the rows of one run. Validates the RunResult first (a bad run fails before any write). With
 * its tenant's redactor (redaction-store.ts), the content is redacted before any row is made and the
 * run records what was taken out where (`Run.redactions`).
 */
export function buildRunRows(given: RunResult, meta: SaveRunMeta, id: string, blobs: BlobSet, redactor: Redactor | null = null): RunRows {
  const input = redactor ? redactRun(given, redactor).run : given;
  // Validate the shape without walking every JSON payload (tool results, messages, checkpoint):
  // those are re-walked when serialised, and a run's conversation repeats them on every call.
  const parsed = checkedRuns.has(input)
    ? { success: true as const }
    : RunResultSchema.safeParse({
        ...input,
        trajectory: input.trajectory.map((s) => (s.kind === 'tool_call' ? { ...s, resultContent: null } : s)),
        modelInputs: input.modelInputs.map((m) => ({ step: m.step, messages: Array.isArray(m.messages) ? [] : m.messages })),
        checkpoint: input.checkpoint ? { ...input.checkpoint, messages: [], stepBlocks: [] } : input.checkpoint,
      });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(`run.${issue?.path.join('.') ?? ''}`, `RunResult is invalid: ${issue?.message ?? 'unknown'}`);
  }
  const run = input;
  const used = new Set<string>();
  const referenced = (hash: string) => (used.add(hash), hash);

  const rows: RunRows = {
    run: undefined as unknown as Prisma.RunCreateManyInput,
    flags: [...new Set(run.weaknesses)].sort().map((flag) => ({ runId: id, flag })),
    transitions: run.transitions.map((t, idx) => ({
      runId: id,
      idx,
      step: t.step,
      fromState: t.from,
      toState: t.to,
      reason: t.reason,
    })),
    modelTurns: [],
    toolCalls: [],
    guards: [],
    compactions: [],
    modelCalls: [],
    messages: [],
    blobRefs: [],
    search: { runId: id, body: searchBody(input) },
    guardsOn: configuredGuards(meta.config).map((guard) => ({ runId: id, guard })),
    agents: runAgentRows(input, id),
    tags: runTagRows(meta, id),
  };
  const tree = agentTreeOf(input);

  let toolErrorCount = 0;
  let blockedCount = 0;
  run.trajectory.forEach((s, idx) => {
    const at = stepTreeColumns(s);
    switch (s.kind) {
      case 'model_turn':
        rows.modelTurns.push(withTimeAndTree({
          runId: id,
          idx,
          step: s.step,
          text: s.text,
          toolCalls: JSON.stringify(s.toolCalls),
          stopReason: s.stopReason,
          inputTokens: s.inputTokens,
          outputTokens: s.outputTokens,
          usageEstimate: s.usageEstimate ? JSON.stringify(s.usageEstimate) : null,
          latencyMs: s.latencyMs,
          contextTokensEstimate: s.contextTokensEstimate,
          provider: s.provider ?? null,
          finishReason: s.finishReason ?? null,
          cachedTokens: s.cachedTokens ?? null,
          cacheWriteTokens: s.cacheWriteTokens ?? null,
          timeToFirstTokenMs: s.timeToFirstTokenMs ?? null,
          providerId: s.providerId ?? null,
          model: s.model ?? null,
          costUsd: s.costUsd ?? null,
          // A call priced on its own always has a note; its null cost then means unknown.
          costNote: s.costUsd !== undefined ? (s.costNote ?? '') : null,
        }, s.time, at));
        break;
      case 'tool_call': {
        const result = blobs.addJson(s.resultContent);
        if (s.isError) toolErrorCount++;
        if (s.blockedBy !== null) blockedCount++;
        rows.toolCalls.push(withTimeAndTree({
          runId: id,
          idx,
          step: s.step,
          toolUseId: s.toolUseId,
          name: s.name,
          arguments: JSON.stringify(s.arguments),
          signature: s.signature,
          resultHash: referenced(result.hash),
          resultPreview: blobs.rows.get(result.hash)!.text.slice(0, RESULT_PREVIEW_CHARS),
          isError: s.isError,
          errorCode: s.errorCode,
          validationError: s.validationError,
          blockedBy: s.blockedBy,
          executed: s.executed,
          payloadChars: s.payloadChars,
          latencyMs: s.latencyMs,
          sanitized: s.sanitized,
          quarantinedLines: s.quarantinedLines,
          quarantinedText: JSON.stringify(s.quarantinedText),
          rewrittenBy: JSON.stringify(s.rewrittenBy),
          policy: s.policy ? JSON.stringify(s.policy) : null,
          mediaHash: s.media && s.media.length > 0 ? referenced(blobs.addJson(s.media).hash) : null,
          approvalWait: s.approvalWait ? JSON.stringify(s.approvalWait) : null,
          taint: s.taint ? JSON.stringify(s.taint) : null,
          schemaViolation: s.schemaViolation ?? null,
          progress: s.progress && s.progress.length > 0 ? JSON.stringify(s.progress) : null,
        }, s.time, at));
        break;
      }
      case 'guard':
        rows.guards.push(withTimeAndTree({ runId: id, idx, step: s.step, guard: s.guard, reason: s.reason, detail: s.detail, errorKind: s.errorKind ?? null }, s.time, at));
        break;
      case 'model_retry':
        // Retries share the event table (guard `model_retry`, reason the typed failure) so replay lists them in place.
        rows.guards.push(withTimeAndTree({ runId: id, idx, step: s.step, guard: MODEL_RETRY_GUARD, reason: s.reason, detail: retryDetail(s), errorKind: null }, s.time, at));
        break;
      case 'guardrail':
        rows.guards.push(withTimeAndTree({ runId: id, idx, step: s.step, guard: GUARDRAIL_GUARD, reason: s.action, detail: JSON.stringify(s), errorKind: null }, s.time, at));
        break;
      case 'span':
        rows.guards.push(withTimeAndTree({ runId: id, idx, step: s.step, guard: SPAN_STEP_GUARD, reason: s.spanKind, detail: spanStepDetail(s), errorKind: null }, s.time, at));
        break;
      case 'tool_session':
        rows.guards.push(withTimeAndTree({ runId: id, idx, step: s.step, guard: TOOL_SESSION_GUARD, reason: s.reason, detail: toolSessionDetail(s), errorKind: null }, undefined, at));
        break;
      case 'compaction':
        rows.compactions.push({
          runId: id,
          idx,
          step: s.step,
          tokensBefore: s.tokensBefore,
          tokensAfter: s.tokensAfter,
          resultsSummarised: s.resultsSummarised,
          ...at,
        });
        break;
    }
  });

  // Message log: each distinct message skeleton gets one position, reused by every call that saw it.
  const seqOf = new Map<string, number>();
  const calls = Math.max(run.modelInputs.length, run.usage.perCall.length);
  for (let callIndex = 0; callIndex < calls; callIndex++) {
    const input = run.modelInputs[callIndex];
    const usage = run.usage.perCall[callIndex];
    const seqs = (input?.messages ?? []).map((message) => {
      const encoded = encodeMessage(message, blobs);
      for (const ref of encoded.refs) used.add(ref);
      const hash = referenced(encoded.hash);
      let seq = seqOf.get(hash);
      if (seq === undefined) {
        seq = seqOf.size;
        seqOf.set(hash, seq);
        rows.messages.push({ runId: id, seq, hash });
      }
      return seq;
    });
    const exchange = run.exchanges?.find((e) => e.callIndex === callIndex);
    rows.modelCalls.push({
      runId: id,
      callIndex,
      requestDigest: exchange?.requestDigest ?? null,
      responseHash: exchange ? referenced(blobs.addJson(exchange.response).hash) : null,
      rawResponseHash: exchange?.raw !== undefined ? referenced(blobs.addJson(exchange.raw).hash) : null,
      step: input?.step ?? null,
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      messageCount: seqs.length,
      messageRanges: JSON.stringify(input ? toRanges(seqs) : null),
    });
  }

  const weaknesses = [...run.weaknesses];
  rows.run = {
    id,
    harnessRunId: run.runId,
    suiteRunId: meta.suiteRunId ?? null,
    createdBy: meta.createdBy ?? null,
    tenant: meta.tenant ?? DEFAULT_TENANT,
    governed: meta.governed ?? false,
    caseId: run.caseId,
    epoch: meta.epoch ?? 0,
    category: meta.category ?? null,
    query: run.query,
    datasetName: meta.datasetName,
    datasetHash: meta.datasetHash,
    transport: meta.transport,
    setting: settingOf(weaknesses),
    weaknesses: JSON.stringify(weaknesses),
    config: JSON.stringify(redactor ? redactor.json(meta.config, 'run config') : meta.config),
    mode: run.mode,
    modelId: run.modelId,
    terminationReason: run.terminationReason,
    status: run.status,
    checkpointHash: run.checkpoint ? referenced(blobs.addJson(run.checkpoint).hash) : null,
    finalAnswer: run.finalAnswer,
    steps: run.steps,
    trajectoryLength: run.trajectory.length,
    toolCallCount: rows.toolCalls.length,
    toolErrorCount,
    blockedCount,
    taintedStep: run.trajectory.find((s) => s.kind === 'tool_call' && s.taint)?.step ?? null,
    guardCount: rows.guards.filter((g) => g.guard !== MODEL_RETRY_GUARD && g.guard !== GUARDRAIL_GUARD && g.guard !== SPAN_STEP_GUARD && g.guard !== TOOL_SESSION_GUARD).length,
    compactionCount: rows.compactions.length,
    modelCallCount: run.usage.modelCalls,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    totalTokens: run.usage.totalTokens,
    // The column is not nullable: an unknown cost is stored as 0 with costKnown false, and read back as null.
    costUsd: run.costEstimate.usd ?? 0,
    costNote: run.costEstimate.note,
    costKnown: run.costEstimate.known !== false,
    cachedTokens: run.usage.cachedTokens ?? 0,
    ...usageDetailColumns(run.usage),
    startedAt: parseStartedAt(run.startedAt),
    durationMs: run.durationMs,
    systemPromptHash: referenced(blobs.add(run.systemPrompt)),
    toolSpecsHash: referenced(blobs.addJson(run.toolSpecs).hash),
    source: meta.source ?? 'harness',
    sessionId: meta.sessionId ?? null,
    traceUserId: meta.traceUserId ?? null,
    redactions: null,
    redactedAt: null,
    // A run stored (again) has no call in flight: a live run's progress and forming answer go (replaceRun updates in place).
    toolProgress: null,
    answerSoFar: null,
    agentCount: rows.agents.length,
    agentTreeHash: tree ? referenced(blobs.addJson(tree as unknown as JsonValue).hash) : null,
    createdAt: new Date(),
  };
  rows.blobRefs = [...used].map((hash) => ({ runId: id, hash }));
  const redactions = redactor?.redactions() ?? [];
  if (redactions.length > 0) rows.run.redactions = JSON.stringify(redactions);
  return rows;
}
