/**
 * One tool call through the harness's checks, in order: run guards (schema-valid calls to known
 * tools only), validation, execution, payload wrappers, quarantine. Returns the trajectory record;
 * the repeated-call guard has already looked at the call.
 */
import type { HarnessConfig } from '../config';
import type { PayloadWrapper, ToolExecutor, ToolProgress, ToolResult, ToolSessionRenewal } from '../executor';
import type { ApprovalResolution, CallPolicy } from '../guards/call-policy';
import type { RunGuard, RunGuardVerdict } from '../guards/run-guard';
import type { JsonObject } from '../json';
import { pyJson } from '../pyjson';
import { MAX_STORED_TOOL_PROGRESS } from '../tunables';
import type { Guardrails } from '../guardrails/config';
import type { GuardrailEvent, ToolCallRequest, ToolRecord, ToolSpec, TerminationReason } from '../types';
import { refuseForbidden, scanToolOutput } from './guardrails-tools';
import { quarantine } from './quarantine';
import { validateArguments } from './validate';

export interface CallOutcome {
  record: ToolRecord;
  /** Set when a run guard halted the run on this call. */
  halt?: { guard: string; reason: TerminationReason; detail: string };
  /** Set when the call policy wants a reviewer's approval before the call may run. */
  awaitApproval?: { rule: string; policyVersion: string; message: string };
  /** Guardrail events of this call (a refusal, findings in its output), recorded after it. */
  guardrailEvents?: GuardrailEvent[];
}

export interface CallEnvironment {
  config: HarnessConfig;
  executor: ToolExecutor;
  specs: ReadonlyMap<string, ToolSpec>;
  runGuards: readonly RunGuard[];
  payloadWrappers: readonly PayloadWrapper[];
  query: string;
  records: readonly ToolRecord[];
  now: () => number;
  operationKey?: (call: ToolCallRequest) => string | undefined;
  policy?: CallPolicy;
  /** A reviewer's resolution for this very call (resuming a paused run); skips the policy. */
  resolution?: ApprovalResolution & { rule: string; policyVersion: string };
  /** When (on `now()`'s clock) the run's wall-clock limit passes: a call still running then is cancelled. */
  deadlineAt?: number;
  /** The run's cancellation. */
  signal?: AbortSignal;
  onToolProgress?: (progress: ToolProgress & { step: number; toolUseId: string; name: string }) => void;
  /** Told of a new session the executor opened with the tool server for this call (recorded beside it). */
  onSessionRenewed?: (renewal: ToolSessionRenewal) => void;
  /** The run's guardrails: forbidden tools are refused here, detectors read the output. */
  guardrails?: Guardrails;
  /** Remove instruction-like lines from the tool's output (the run's `quarantine` option). */
  quarantine: boolean;
}

/** Runs `call` with a signal that aborts at the run's deadline or when the run is cancelled. */
async function withDeadline<T>(env: CallEnvironment, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onCancel = () => controller.abort(env.signal?.reason);
  if (env.signal?.aborted) onCancel();
  else env.signal?.addEventListener('abort', onCancel, { once: true });
  const left = env.deadlineAt === undefined ? undefined : Math.max(0, env.deadlineAt - env.now());
  const timer = left === undefined ? undefined : setTimeout(() => controller.abort(new Error('the run reached its wall-clock limit')), left);
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    env.signal?.removeEventListener('abort', onCancel);
  }
}

export function callSignature(name: string, args: unknown): string {
  return `${name}:${pyJson(args, { sortKeys: true })}`;
}

function baseRecord(step: number, call: ToolCallRequest): ToolRecord {
  return {
    kind: 'tool_call',
    step,
    toolUseId: call.toolUseId,
    name: call.name,
    arguments: call.arguments,
    signature: callSignature(call.name, call.arguments),
    resultContent: null,
    isError: false,
    errorCode: null,
    validationError: null,
    blockedBy: null,
    executed: false,
    payloadChars: 0,
    latencyMs: 0,
    sanitized: false,
    quarantinedLines: 0,
    quarantinedText: [],
    rewrittenBy: [],
    policy: null,
  };
}

function consultRunGuards(env: CallEnvironment, call: ToolCallRequest, step: number): { guard: string; verdict: RunGuardVerdict } | null {
  for (const guard of env.runGuards) {
    const verdict = guard.checkToolCall({ name: call.name, arguments: call.arguments }, { query: env.query, step, records: env.records });
    if (verdict.action !== 'allow') return { guard: guard.name, verdict };
  }
  return null;
}

/** Longest excerpt of planted text a taint keeps. */
const TAINT_EXCERPT_CHARS = 200;

/**
 * Whether the tool's result carried prompt-injection signals: what quarantine removed, or (when
 * quarantine was off — injection_unguarded — and so removed nothing) what it would have removed,
 * else a guardrail's no_injection finding. Detection only: the content is not changed here.
 */
function taintOf(result: ToolResult, quarantined: readonly string[], events: readonly GuardrailEvent[]): ToolRecord['taint'] | null {
  if (result.isError) return null;
  const planted = quarantined[0] ?? quarantine(result.content).removed[0];
  if (planted !== undefined) return { detector: 'quarantine', excerpt: planted.slice(0, TAINT_EXCERPT_CHARS) };
  const injection = events.find((e) => e.kind === 'guardrail' && 'guardrail' in e && e.guardrail === 'no_injection');
  if (injection) return { detector: 'no_injection', excerpt: ('detail' in injection && typeof injection.detail === 'string' ? injection.detail : 'an instruction-like passage').slice(0, TAINT_EXCERPT_CHARS) };
  return null;
}

export async function executeCall(env: CallEnvironment, call: ToolCallRequest, step: number): Promise<CallOutcome> {
  const record = baseRecord(step, call);
  const spec = env.specs.get(call.name);
  if (!spec) {
    const message = `unknown tool ${call.name}`;
    return {
      record: { ...record, resultContent: { error: 'unknown_tool', message }, isError: true, errorCode: 'unknown_tool', validationError: message },
    };
  }

  const refused = env.guardrails ? refuseForbidden(env.guardrails, call, step, record) : null;
  if (refused) return refused;

  const validationError = validateArguments(spec.inputSchema, call.arguments);
  if (validationError !== null) {
    const content: JsonObject = { error: 'invalid_arguments', message: validationError, expected_schema: spec.inputSchema };
    return {
      record: {
        ...record,
        resultContent: content,
        isError: true,
        errorCode: 'invalid_arguments',
        validationError,
        payloadChars: pyJson(content).length,
      },
    };
  }

  const decided = consultRunGuards(env, call, step);
  if (decided) {
    const { guard, verdict } = decided;
    if (verdict.action === 'block') {
      const content: JsonObject = { error: 'blocked_by_guard', guard, message: verdict.message };
      return { record: { ...record, resultContent: content, isError: true, errorCode: 'blocked_by_guard', blockedBy: guard } };
    }
    if (verdict.action === 'halt') {
      const content: JsonObject = { error: 'halted_by_guard', guard, message: verdict.detail };
      return {
        record: { ...record, resultContent: content, isError: true, errorCode: 'halted_by_guard', blockedBy: guard },
        halt: { guard, reason: verdict.reason, detail: verdict.detail },
      };
    }
  }

  let policy: ToolRecord['policy'] = null;
  if (env.resolution) {
    const { rule, policyVersion } = env.resolution;
    // Immediately before dispatch: the call about to be sent must be the call that was approved.
    const mismatch = env.resolution.outcome === 'approved' ? (env.resolution.confirm?.(call) ?? null) : null;
    const resolution: ApprovalResolution = mismatch ? { outcome: 'stale', message: mismatch } : env.resolution;
    policy = { decision: 'approval_required', rule, policyVersion, resolution: resolution.outcome };
    if (resolution.outcome !== 'approved') {
      const content: JsonObject = { error: `approval_${resolution.outcome}`, rule, message: resolution.message };
      return { record: { ...record, resultContent: content, isError: true, errorCode: `approval_${resolution.outcome}`, blockedBy: 'policy', policy } };
    }
  } else if (env.policy) {
    const d = env.policy.decide(call, spec, { query: env.query, step, records: env.records });
    policy = { decision: d.decision, rule: d.rule, policyVersion: d.policyVersion, resolution: null };
    if (d.decision === 'deny') {
      const content: JsonObject = { error: 'denied_by_policy', rule: d.rule, message: d.message };
      return { record: { ...record, resultContent: content, isError: true, errorCode: 'denied_by_policy', blockedBy: 'policy', policy } };
    }
    if (d.decision === 'approval_required') {
      return { record: { ...record, policy }, awaitApproval: { rule: d.rule, policyVersion: d.policyVersion, message: d.message } };
    }
  }

  const started = env.now();
  const onToolProgress = env.onToolProgress;
  // Kept on the record for replay (the last ones only), and handed to a live observer as they come.
  const progress: ToolProgress[] = [];
  const onProgress = (p: ToolProgress): void => {
    progress.push(p);
    if (progress.length > MAX_STORED_TOOL_PROGRESS) progress.shift();
    onToolProgress?.({ ...p, step, toolUseId: call.toolUseId, name: call.name });
  };
  const onSessionRenewed = env.onSessionRenewed;
  let result: ToolResult = await withDeadline(env, (signal) =>
    env.executor.call(call.name, call.arguments, { operationKey: env.operationKey?.(call), signal, onProgress, ...(onSessionRenewed ? { onSessionRenewed } : {}) }),
  );
  const rewrittenBy: string[] = [];
  for (const wrapper of env.payloadWrappers) {
    const next = wrapper.wrap({ name: call.name, arguments: call.arguments }, result);
    if (next !== result) rewrittenBy.push(wrapper.name);
    result = next;
  }
  const latencyMs = env.now() - started;
  let content = result.content;
  let quarantinedLines = 0;
  let quarantinedText: string[] = [];
  if (env.quarantine && !result.isError) {
    const q = quarantine(content);
    content = q.content;
    quarantinedLines = q.removedLines;
    quarantinedText = q.removed;
  }
  const scanned = env.guardrails ? scanToolOutput(env.guardrails, content, step, call.toolUseId) : null;
  if (scanned) content = scanned.content;
  const taint = taintOf(result, quarantinedText, scanned?.events ?? []);
  return {
    ...(scanned && scanned.events.length > 0 ? { guardrailEvents: scanned.events } : {}),
    record: {
      ...record,
      resultContent: content,
      isError: result.isError,
      errorCode: result.errorCode,
      executed: true,
      payloadChars: result.payloadChars,
      latencyMs: Math.round(latencyMs * 1000) / 1000,
      sanitized: env.quarantine && !result.isError,
      quarantinedLines,
      quarantinedText,
      rewrittenBy,
      policy,
      ...(taint ? { taint } : {}),
      ...(result.media ? { media: result.media } : {}),
      ...(result.schemaViolation !== undefined ? { schemaViolation: result.schemaViolation } : {}),
      ...(progress.length > 0 ? { progress } : {}),
    },
  };
}
