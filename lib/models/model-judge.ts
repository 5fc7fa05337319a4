/**
 * A live judge: grades the same items as the FakeJudge by asking a model through the harness's
 * Converse-shaped ModelClient (so any provider of lib/models, with its retries and breaker). Every
 * call is recorded (request digest, request, mapped response, the provider's own body) in a
 * JudgeCallStore, which is also the cache: the same judge asked the same request is answered from
 * the store without calling the provider. A failed call or an unreadable answer is an unscored item.
 */
import type { CostMeter } from '../harness';
import type { JsonValue } from '../harness';
import type { ModelClient } from '../harness';
import { requestDigest } from './recording';
import { ModelCallError } from '../harness';
import type { GradeOptions, Judge, JudgeItem, JudgeOutcome, JudgeSpend } from '../eval';
import { judgeRequest, verdictFromResponse } from '../eval';

/** One recorded judge call. `response` is the mapped (Converse-shaped) reply; `raw` the provider's body. */
export interface JudgeCallRecord {
  judge: string;
  requestDigest: string;
  request: JsonValue;
  response: { text: string | null; toolCalls: { toolUseId: string; name: string; arguments: JsonValue }[] } & Record<string, JsonValue>;
  raw: JsonValue | null;
  /** Null: the answer reported no usage. */
  inputTokens: number | null;
  outputTokens: number | null;
}

/** Where judge calls are recorded and looked up (the database per tenant, or memory for one process). */
export interface JudgeCallStore {
  get(judge: string, requestDigest: string): Promise<JudgeCallRecord | null>;
  put(record: JudgeCallRecord): Promise<void>;
}

/** A store for one process (a CLI eval without a database): repeated items within it are still asked once. */
export class MemoryJudgeCallStore implements JudgeCallStore {
  private readonly calls = new Map<string, JudgeCallRecord>();
  async get(judge: string, digest: string) {
    return this.calls.get(`${judge}\u0000${digest}`) ?? null;
  }
  async put(record: JudgeCallRecord) {
    this.calls.set(`${record.judge}\u0000${record.requestDigest}`, record);
  }
}

/** What a failed judge call cost: the usage it reported on an unusable answer, or unknown. */
function failedSpend(err: unknown, meter: CostMeter | null): JudgeSpend {
  const billed = err instanceof ModelCallError ? err.usage : undefined;
  if (!billed) return { calls: 1, failedCalls: 1, inputTokens: 0, outputTokens: 0, usd: 0 };
  const usd = meter?.usd({ ...billed, cachedTokens: 0 }) ?? null;
  return { calls: 1, failedCalls: 1, ...billed, usd };
}

export class ModelJudge implements Judge {
  readonly name: string;
  readonly rubricVersion = 'v2' as const;
  /** Calls that reached the provider, and items answered from the store. */
  providerCalls = 0;
  cacheHits = 0;

  constructor(
    private readonly client: ModelClient,
    private readonly store: JudgeCallStore = new MemoryJudgeCallStore(),
    /** Prices the judge's own calls (kept apart from the agent's cost); without one their cost is unknown. */
    private readonly costMeter: CostMeter | null = null,
  ) {
    this.name = client.modelId;
  }

  async grade(item: JudgeItem, options: GradeOptions = {}): Promise<JudgeOutcome> {
    const request = judgeRequest(item);
    const digest = requestDigest(request);
    let record = await this.store.get(this.name, digest);
    if (record) this.cacheHits += 1;
    else {
      options.signal?.throwIfAborted();
      let reply;
      try {
        this.providerCalls += 1;
        reply = await this.client.converse({ ...request, signal: options.signal });
      } catch (err) {
        // Cancellation ends the suite; any other failure (after the client's retries) leaves this item unscored.
        if (options.signal?.aborted) throw err;
        const kind = (err as { kind?: string }).kind ?? 'error';
        return {
          unscored: 'model_error',
          detail: `${kind}: ${err instanceof Error ? err.message : String(err)}`,
          // A failed call that reported usage on an answer it could not use was billed: kept.
          spend: failedSpend(err, this.costMeter),
        };
      }
      const { raw, exchange: _e, diverged: _d, ...mapped } = reply;
      record = {
        judge: this.name,
        requestDigest: digest,
        request: request as unknown as JsonValue,
        response: mapped as unknown as JudgeCallRecord['response'],
        raw: raw ?? null,
        inputTokens: reply.inputTokens,
        outputTokens: reply.outputTokens,
      };
      await this.store.put(record);
      const known = reply.inputTokens !== null && reply.outputTokens !== null;
      const usd = known
        ? this.costMeter?.usd({
            inputTokens: reply.inputTokens ?? 0,
            outputTokens: reply.outputTokens ?? 0,
            cachedTokens: reply.cachedTokens ?? 0,
            cacheWriteTokens: reply.cacheWriteTokens ?? 0,
          })
        : null;
      const spend = {
        calls: 1,
        failedCalls: 0,
        inputTokens: reply.inputTokens ?? 0,
        outputTokens: reply.outputTokens ?? 0,
        usd: usd ?? null,
        ...(known ? {} : { unreportedCalls: 1 }),
      };
      return { ...verdictFromResponse(record.response), spend };
    }
    return verdictFromResponse(record.response);
  }
}
