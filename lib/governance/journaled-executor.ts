/**
 * A ToolExecutor decorator that journals every write (the loop is unchanged). A write runs at most
 * once per operation key: a committed key returns the recorded result without touching the
 * downstream system. A key left `dispatched` by a crash or timeout is reconciled at once, by asking
 * the downstream by operation key: found, the run goes on with the recorded result; absent, the call
 * is sent again under the same key when the caller allows it (`redispatchAbsent`: the policy, and the
 * approval it needed, let this very call through just now), else refused as never applied. Only a
 * downstream that cannot be asked leaves it `unknown`. Every step's evidence event is committed with
 * the step (JournalStore). Reads pass straight through.
 */
import { ForwardingExecutor, type ToolCallContext, type ToolExecutor, type ToolResult } from '../harness';
import type { JsonValue } from '../harness';
import { pyJson } from '../harness';
import type { ToolCallRequest } from '../harness';
import { canonicalDigest } from './canonical-json';
import { operationKey, type EffectStatus, type JournalEntry, type JournalEvidence, type JournalStore } from './effect-journal';
import { evidenceBody, type EvidenceSink } from './evidence';
import { reconcileEntry, type Reconciler } from './reconcile';
import { redact } from './redact';

/** The moments of one write a fault drill can stop a process at (JournaledExecutorOptions.afterStep). */
export type JournalStep = 'prepared' | 'dispatched' | 'downstream';

export interface JournaledExecutorOptions {
  store: JournalStore;
  runId: string;
  isWrite(tool: string): boolean;
  toolVersion(tool: string): string;
  /**
   * Where the segment's other evidence goes. Held events are stored (flush) before each journal step,
   * so the chain keeps its order; the step's own event is committed with the step.
   */
  evidence?: EvidenceSink & { flush?: () => Promise<void> };
  policyVersion?: string;
  now?: () => Date;
  /**
   * Asks the downstream by operation key when a dispatched write's outcome was lost (timeout,
   * dropped connection, a worker killed): the entry is reconciled at once instead of waiting for an operator.
   */
  reconciler?: Reconciler;
  /**
   * Whether a write reconciliation found never applied may be sent again under its key (true for a
   * call the policy, and its approval when it needed one, let through in this segment). Default: no.
   */
  redispatchAbsent?: (key: string) => boolean;
  /** Told after each step of a write is stored (instructor mode's worker-kill drill). */
  afterStep?: (step: JournalStep) => Promise<void>;
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

  private body(entry: JournalEntry, status: EffectStatus, latencyMs: number | null, detail: string | null, redactions: string[] = []) {
    return evidenceBody({
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
    });
  }

  /** The evidence of a journal step, committed with it (after the events held so far are stored). */
  private async step(detail: string | null, latencyMs: number | null = null, redactions: string[] = []): Promise<JournalEvidence> {
    await this.options.evidence?.flush?.();
    return { body: (e) => this.body(e, e.status, latencyMs, detail, redactions), sink: this.options.evidence };
  }

  /** An event about the entry that is not a step (a duplicate delivery answered from the journal). */
  private async note(entry: JournalEntry, detail: string): Promise<void> {
    await this.options.evidence?.append(this.body(entry, entry.status, 0, detail));
  }

  /**
   * Asks the downstream what happened to an unknown write: found, the recorded result; absent, the
   * call again (when allowed) or a refusal. It stays unknown when the downstream cannot be asked.
   */
  private async reconcileNow(name: string, args: JsonValue, key: string, context: ToolCallContext | undefined, sendAgain = true): Promise<ToolResult> {
    const { reconciler } = this.options;
    if (!reconciler) return unknownEffectResult(key);
    let entry: JournalEntry;
    try {
      await this.options.evidence?.flush?.();
      entry = await reconcileEntry(this.options.store, reconciler, key, { evidence: this.options.evidence, now: this.options.now });
    } catch {
      return unknownEffectResult(key);
    }
    if (entry.status === 'reconciled_committed') return resultOf(entry.result, false, null);
    return sendAgain && this.options.redispatchAbsent?.(key) ? this.dispatch(name, args, entry, context) : absentResult(key);
  }

  override async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    const key = context?.operationKey;
    if (!this.options.isWrite(name) || key === undefined) return this.inner.call(name, args, context);
    const { store } = this.options;
    const meta = this.calls.get(key) ?? { callId: key.split(':')[2] ?? key, tool: name, toolVersion: this.options.toolVersion(name) };
    const { redactions } = redact(args);
    const entry =
      (await store.get(key)) ??
      (await store.prepare({ operationKey: key, runId: this.options.runId, ...meta, argumentsDigest: canonicalDigest(args) }, this.at(), await this.step(null, null, redactions)));
    if (entry.status === 'prepared') await this.options.afterStep?.('prepared');

    switch (entry.status) {
      case 'committed':
      case 'reconciled_committed':
        await this.note(entry, 'duplicate delivery: returned the recorded result');
        return resultOf(entry.result, false, null);
      case 'failed':
        await this.note(entry, 'duplicate delivery: returned the recorded failure');
        return resultOf(entry.result, true, entry.error);
      case 'reconciled_absent':
        return this.options.redispatchAbsent?.(key) ? this.dispatch(name, args, entry, context) : absentResult(key);
      case 'unknown':
        // Left unknown earlier (the downstream could not be asked then): ask again.
        return this.reconcileNow(name, args, key, context);
      case 'dispatched': {
        // A previous attempt was sent and never came back (a crash, a timeout): never resend it
        // blindly; ask the downstream whether it happened.
        const moved = await store.transition(key, 'dispatched', 'unknown', { error: 'no outcome recorded after dispatch' }, this.at(), await this.step('found dispatched without an outcome'));
        if (!moved) return this.settledElsewhere(key);
        return this.reconcileNow(name, args, key, context);
      }
      case 'prepared':
        // Nothing was sent yet, so sending now is safe.
        return this.dispatch(name, args, entry, context);
    }
  }

  /** Another worker moved the entry first: answer from where it left it. */
  private async settledElsewhere(key: string): Promise<ToolResult> {
    const now = await this.options.store.get(key);
    if (now && (now.status === 'committed' || now.status === 'reconciled_committed')) return resultOf(now.result, false, null);
    if (now?.status === 'failed') return resultOf(now.result, true, now.error);
    return unknownEffectResult(key);
  }

  /** Sends the write (from prepared, or again after reconciliation found it absent) and records its outcome. */
  private async dispatch(name: string, args: JsonValue, entry: JournalEntry, context: ToolCallContext | undefined): Promise<ToolResult> {
    const { store } = this.options;
    const key = entry.operationKey;
    const again = entry.status === 'reconciled_absent';
    const dispatched = await store.transition(key, entry.status, 'dispatched', { attempts: entry.attempts + 1 }, this.at(), await this.step(again ? 'sent again: reconciliation found it never applied' : null));
    if (!dispatched) return unknownEffectResult(key); // another worker took it; its outcome decides
    await this.options.afterStep?.('dispatched');
    const started = Date.now();
    let result: ToolResult;
    try {
      result = await this.inner.call(name, args, context);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const moved = await store.transition(key, 'dispatched', 'unknown', { error: message }, this.at(), await this.step('the downstream call did not return', Date.now() - started));
      // Sent once in this call already: a downstream that failed without applying it is not sent it again here.
      return moved ? this.reconcileNow(name, args, key, context, false) : unknownEffectResult(key);
    }
    await this.options.afterStep?.('downstream');
    const to: EffectStatus = result.isError ? 'failed' : 'committed';
    await store.transition(key, 'dispatched', to, { result: result.content, resultDigest: canonicalDigest(result.content), error: result.errorCode }, this.at(), await this.step(null, Date.now() - started));
    return result;
  }
}
