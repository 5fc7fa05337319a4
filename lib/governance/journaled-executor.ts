/**
 * A ToolExecutor decorator that journals every write (the loop is unchanged). A write runs at most
 * once per operation key: a committed key returns the recorded result without touching the
 * downstream system, and a key left dispatched by a crash or timeout becomes `unknown` and is
 * refused until reconciliation says what happened. Reads pass straight through.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness/executor';
import type { JsonValue } from '../harness/json';
import { pyJson } from '../harness/pyjson';
import type { ToolCallRequest } from '../harness/types';
import { canonicalDigest } from './canonical-json';
import { operationKey, type EffectStatus, type JournalEntry, type JournalStore } from './effect-journal';
import { evidenceBody, type EvidenceSink } from './evidence';
import { reconcileEntry, type Reconciler } from './reconcile';
import { redact } from './redact';

export interface JournaledExecutorOptions {
  store: JournalStore;
  runId: string;
  isWrite(tool: string): boolean;
  toolVersion(tool: string): string;
  evidence?: EvidenceSink;
  policyVersion?: string;
  now?: () => Date;
  /**
   * Asks the downstream by operation key when a dispatched write's outcome was lost (timeout,
   * dropped connection): the entry is reconciled at once instead of waiting for an operator.
   */
  reconciler?: Reconciler;
}

function resultOf(content: JsonValue, isError: boolean, errorCode: string | null): ToolResult {
  return { content, isError, errorCode, payloadChars: pyJson(content).length };
}

/** What the model reads when a write's outcome is not known yet. */
export function unknownEffectResult(key: string): ToolResult {
  return resultOf(
    { error: 'effect_unknown', operation_key: key, message: 'the outcome of this write is unknown; it will not be retried until it is reconciled' },
    true,
    'effect_unknown',
  );
}

function absentResult(key: string): ToolResult {
  return resultOf({ error: 'effect_absent', operation_key: key, message: 'reconciliation found this write was never applied; start a new run to try again' }, true, 'effect_absent');
}

export class JournaledExecutor extends ForwardingExecutor {
  private readonly calls = new Map<string, { callId: string; tool: string; toolVersion: string }>();

  constructor(
    inner: ToolExecutor,
    private readonly options: JournaledExecutorOptions,
  ) {
    super(inner);
  }

  /** The operation key for a call (writes only): hand this to the harness as `operationKey`. */
  operationKey(call: ToolCallRequest): string | undefined {
    if (!this.options.isWrite(call.name)) return undefined;
    const toolVersion = this.options.toolVersion(call.name);
    const key = operationKey({ runId: this.options.runId, callId: call.toolUseId, tool: call.name, toolVersion });
    this.calls.set(key, { callId: call.toolUseId, tool: call.name, toolVersion });
    return key;
  }

  private at(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  private async record(entry: JournalEntry, status: EffectStatus, latencyMs: number | null, detail: string | null, redactions: string[] = []): Promise<void> {
    await this.options.evidence?.append(
      evidenceBody({
        kind: 'effect',
        at: this.at(),
        runId: entry.runId,
        callId: entry.callId,
        operationKey: entry.operationKey,
        tool: entry.tool,
        toolVersion: entry.toolVersion,
        policyVersion: this.options.policyVersion ?? null,
        effectStatus: status,
        argumentsDigest: entry.argumentsDigest,
        resultDigest: entry.resultDigest,
        latencyMs,
        redactions,
        detail,
      }),
    );
  }

  /** Asks the downstream what happened to an unknown write; it stays unknown if that fails. */
  private async reconcileNow(key: string): Promise<ToolResult> {
    const { reconciler } = this.options;
    if (!reconciler) return unknownEffectResult(key);
    try {
      const entry = await reconcileEntry(this.options.store, reconciler, key, { evidence: this.options.evidence, now: this.options.now });
      return entry.status === 'reconciled_committed' ? resultOf(entry.result, false, null) : absentResult(key);
    } catch {
      return unknownEffectResult(key);
    }
  }

  override async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    const key = context?.operationKey;
    if (!this.options.isWrite(name) || key === undefined) return this.inner.call(name, args, context);
    const { store } = this.options;
    const meta = this.calls.get(key) ?? { callId: key.split(':')[2] ?? key, tool: name, toolVersion: this.options.toolVersion(name) };
    const { redactions } = redact(args);
    let entry =
      (await store.get(key)) ??
      (await store.prepare({ operationKey: key, runId: this.options.runId, ...meta, argumentsDigest: canonicalDigest(args) }, this.at()));
    if (entry.status === 'prepared' && entry.attempts === 0) await this.record(entry, 'prepared', null, null, redactions);

    switch (entry.status) {
      case 'committed':
      case 'reconciled_committed':
        await this.record(entry, entry.status, 0, 'duplicate delivery: returned the recorded result');
        return resultOf(entry.result, false, null);
      case 'failed':
        await this.record(entry, entry.status, 0, 'duplicate delivery: returned the recorded failure');
        return resultOf(entry.result, true, entry.error);
      case 'reconciled_absent':
        return absentResult(key);
      case 'unknown':
        return unknownEffectResult(key);
      case 'dispatched': {
        // A previous attempt was sent and never came back (crash or timeout): never resend it.
        const moved = await store.transition(key, 'dispatched', 'unknown', { error: 'no outcome recorded after dispatch' }, this.at());
        if (moved) await this.record(moved, 'unknown', null, 'found dispatched without an outcome');
        return unknownEffectResult(key);
      }
      case 'prepared':
        break;
    }

    // prepared: nothing was sent yet, so sending now is safe.
    const dispatched = await store.transition(key, 'prepared', 'dispatched', { attempts: entry.attempts + 1 }, this.at());
    if (!dispatched) return unknownEffectResult(key); // another worker took it; its outcome decides
    entry = dispatched;
    await this.record(entry, 'dispatched', null, null);
    const started = Date.now();
    let result: ToolResult;
    try {
      result = await this.inner.call(name, args, context);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const moved = await store.transition(key, 'dispatched', 'unknown', { error: message }, this.at());
      if (moved) await this.record(moved, 'unknown', Date.now() - started, 'the downstream call did not return');
      return moved ? this.reconcileNow(key) : unknownEffectResult(key);
    }
    const to: EffectStatus = result.isError ? 'failed' : 'committed';
    const done = await store.transition(key, 'dispatched', to, { result: result.content, resultDigest: canonicalDigest(result.content), error: result.errorCode }, this.at());
    if (done) await this.record(done, to, Date.now() - started, null);
    return result;
  }
}
