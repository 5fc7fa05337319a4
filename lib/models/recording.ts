/**
 * Recorded exchanges and replay against a changed harness. A RecordingModelClient stamps each
 * response with the SHA-256 digest of the canonical request (system, messages, tools, max tokens);
 * the loop keeps it with the full normalised response in RunResult.exchanges (never the API key:
 * the request holds none). A ReplayModelClient answers from a stored run's exchanges while the
 * requests match; at the first mismatch it stops the run as DIVERGED, or continues live when a live
 * model was chosen, and says what differed.
 */
import type { TokenEstimator } from '../harness';
import { TIKTOKEN_ESTIMATOR } from './token-estimator';
import { ModelCallError } from '../harness';
import type { JsonValue } from '../harness';
import type { ConverseRequest, ModelClient } from '../harness';
import { isGuardEvent, type Message, type ModelResponse, type RunResult, type ToolSpec } from '../harness';
import { canonicalDigest, canonicalJson } from '../governance';

/** What a digest covers: everything the harness sends that a harness change could alter. */
export interface RequestShape {
  system: string;
  messages: readonly Message[] | readonly JsonValue[];
  tools: readonly ToolSpec[] | RunResult['toolSpecs'];
  maxTokens: number;
}

export function requestDigest(r: RequestShape): string {
  return canonicalDigest({ system: r.system, messages: r.messages, tools: r.tools, maxTokens: r.maxTokens });
}

export class RecordingModelClient implements ModelClient {
  readonly modelId: string;
  /** Counts an unreported call's tokens for the budgets (every live client has one). */
  readonly tokenEstimator: TokenEstimator = TIKTOKEN_ESTIMATOR;
  constructor(private readonly inner: ModelClient) {
    this.modelId = inner.modelId;
  }
  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const response = await this.inner.converse(request);
    return { ...response, exchange: { requestDigest: requestDigest(request) } };
  }
}

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A short account of how two requests differ: system prompt, each tool, then the first differing message. */
export function diffRequests(recorded: RequestShape, current: RequestShape): string {
  const parts: string[] = [];
  if (recorded.system !== current.system) parts.push(`system prompt: ${JSON.stringify(clip(recorded.system))} → ${JSON.stringify(clip(current.system))}`);
  const before = new Map(recorded.tools.map((t) => [t.name, t]));
  const after = new Map(current.tools.map((t) => [t.name, t]));
  for (const [name, t] of after) {
    const old = before.get(name);
    if (!old) parts.push(`tool ${name} added`);
    else {
      if (old.description !== t.description) parts.push(`tool ${name} description: ${JSON.stringify(clip(old.description))} → ${JSON.stringify(clip(t.description))}`);
      if (canonicalJson(old.inputSchema) !== canonicalJson(t.inputSchema)) parts.push(`tool ${name} input schema changed`);
    }
  }
  for (const name of before.keys()) if (!after.has(name)) parts.push(`tool ${name} removed`);
  if (recorded.maxTokens !== current.maxTokens) parts.push(`max tokens: ${recorded.maxTokens} → ${current.maxTokens}`);
  const n = Math.max(recorded.messages.length, current.messages.length);
  for (let i = 0; i < n; i++) {
    const a = recorded.messages[i] === undefined ? '(none)' : canonicalJson(recorded.messages[i]);
    const b = current.messages[i] === undefined ? '(none)' : canonicalJson(current.messages[i]);
    if (a !== b) {
      parts.push(`message ${i + 1}: ${clip(a)} → ${clip(b)}`);
      break;
    }
  }
  return parts.length > 0 ? parts.join('; ') : 'the requests differ only in ways the digest sees (e.g. key order)';
}

export interface ReplayOptions {
  /** Continue live from the first mismatch instead of stopping as DIVERGED. */
  live?: ModelClient | null;
  /** The max-tokens setting the recorded run used (part of every recorded request). */
  recordedMaxTokens: number;
}

/** Answers from a stored run's recorded exchanges (see module comment). */
export class ReplayModelClient implements ModelClient {
  readonly modelId: string;
  /** A recorded call that reported no usage is estimated again on replay, as it was live. */
  readonly tokenEstimator: TokenEstimator = TIKTOKEN_ESTIMATOR;
  private call = 0;
  private departed = false;

  constructor(
    private readonly recorded: Pick<RunResult, 'runId' | 'modelId' | 'systemPrompt' | 'toolSpecs' | 'modelInputs' | 'exchanges'>,
    private readonly options: ReplayOptions,
  ) {
    this.modelId = options.live?.modelId ?? recorded.modelId;
  }

  private recordedRequest(index: number): RequestShape | null {
    const input = this.recorded.modelInputs[index];
    if (!input) return null;
    return { system: this.recorded.systemPrompt, messages: input.messages, tools: this.recorded.toolSpecs, maxTokens: this.options.recordedMaxTokens };
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const index = this.call++;
    const digest = requestDigest(request);
    const exchange = this.departed ? undefined : this.recorded.exchanges?.find((e) => e.callIndex === index);
    if (exchange && exchange.requestDigest === digest) {
      const raw = exchange.raw !== undefined ? { raw: exchange.raw } : {};
      return { ...(exchange.response as unknown as ModelResponse), ...raw, exchange: { requestDigest: digest } };
    }
    const previous = this.recordedRequest(index);
    const detail = this.departed
      ? null
      : exchange && previous
        ? `model call ${index + 1} differs from run ${this.recorded.runId}: ${diffRequests(previous, request)}`
        : `run ${this.recorded.runId} has no recorded answer for model call ${index + 1}`;
    const live = this.options.live;
    if (!live) throw new ModelCallError('diverged', detail ?? 'diverged');
    this.departed = true;
    const response = await live.converse(request);
    return { ...response, exchange: { requestDigest: digest }, ...(detail ? { diverged: { detail } } : {}) };
  }
}

/** How a replayed run went: reproduced the recording, stopped as DIVERGED, or diverged and continued live. */
export interface ReplayOutcome {
  status: 'REPRODUCED' | 'DIVERGED' | 'DIVERGED_CONTINUED_LIVE';
  /** The step at which the requests parted, and what differed; null when reproduced. */
  step: number | null;
  detail: string | null;
}

export function replayOutcome(run: Pick<RunResult, 'terminationReason' | 'trajectory'>): ReplayOutcome {
  const event = run.trajectory.filter(isGuardEvent).find((e) => e.guard === 'replay' && e.reason === 'DIVERGED');
  if (!event) return { status: 'REPRODUCED', step: null, detail: null };
  return { status: run.terminationReason === 'DIVERGED' ? 'DIVERGED' : 'DIVERGED_CONTINUED_LIVE', step: event.step, detail: event.detail ?? null };
}
