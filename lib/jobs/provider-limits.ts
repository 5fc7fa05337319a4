/**
 * Per-provider limits shared by every worker: at most `concurrent` calls in flight,
 * `requestsPerMinute` calls started and `tokensPerMinute` tokens spent in any sliding minute, per
 * provider, across all processes that share the database. Each call holds a ProviderCall row while it runs (with a lease, so a
 * dead worker's calls stop counting); taking a slot is serialised per provider (PostgreSQL: an
 * advisory transaction lock). Workers, and so these limits, exist on PostgreSQL only.
 *
 * Configured with STOCKROOM_PROVIDER_LIMITS, e.g. `openai-compatible=concurrent:16,rpm:600,tpm:200000;anthropic=concurrent:4`.
 *
 * Tokens are counted the way providers count them against a per-minute quota: a call reserves its
 * estimated input (characters / CHARS_PER_TOKEN) plus the most output it may produce (maxTokens)
 * before it starts, and once answered holds the input + output the provider reported instead.
 * A call bigger than the whole limit still goes when the minute is otherwise empty (it could never
 * go otherwise; the provider then refuses or throttles it, which the resilient client handles).
 */
import { hostname } from 'node:os';
import type { ConverseRequest, ModelClient } from '../harness/model/client';
import { CHARS_PER_TOKEN } from '../harness/tunables';
import type { Database } from '../db/client';
import { newId } from '../db/ids';
import { parseModelName } from '../harness/config';

export interface ProviderLimit {
  concurrent: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

/** How long a call may hold its slot before it stops counting (a worker died mid-call). */
export const CALL_LEASE_MS = 10 * 60_000;
/** Wait between attempts to take a slot. */
const SLOT_WAIT_MS = 25;

/** Parses STOCKROOM_PROVIDER_LIMITS; a bad entry is refused naming the variable and the entry. */
export function parseProviderLimits(raw: string | undefined): Map<string, ProviderLimit> {
  const limits = new Map<string, ProviderLimit>();
  if (!raw || raw.trim() === '') return limits;
  for (const entry of raw.split(';').map((e) => e.trim()).filter(Boolean)) {
    const [provider, spec] = entry.split('=');
    if (!provider || !spec) throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: '${entry}' is not provider=concurrent:N,rpm:N,tpm:N`);
    const limit: ProviderLimit = { concurrent: null, requestsPerMinute: null, tokensPerMinute: null };
    for (const part of spec.split(',')) {
      const [k, v] = part.split(':').map((s) => s.trim());
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: '${part}' in '${entry}' needs a positive integer`);
      if (k === 'concurrent') limit.concurrent = n;
      else if (k === 'rpm') limit.requestsPerMinute = n;
      else if (k === 'tpm') limit.tokensPerMinute = n;
      else throw new RangeError(`STOCKROOM_PROVIDER_LIMITS: unknown limit '${k}' in '${entry}' (concurrent, rpm, tpm)`);
    }
    limits.set(provider.trim(), limit);
  }
  return limits;
}

/** The tokens a request may spend, as providers reserve them: its estimated input plus its output ceiling. */
export function requestTokenEstimate(request: Pick<ConverseRequest, 'system' | 'messages' | 'tools' | 'maxTokens'>): number {
  const chars = request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + request.maxTokens;
}

/**
 * Takes a slot for `provider`, waiting while the limits are reached; returns the slot's id.
 * `tokens` is what the call reserves against a tokens-per-minute limit (requestTokenEstimate).
 */
export async function acquireSlot(db: Database, provider: string, limit: ProviderLimit, holder: string, signal?: AbortSignal, tokens = 0): Promise<string> {
  for (;;) {
    signal?.throwIfAborted();
    const id = await db.prisma.$transaction(async (tx) => {
      if (db.provider === 'postgres') await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'provider:' + provider}))`;
      const now = new Date();
      if (limit.concurrent !== null) {
        const inFlight = await tx.providerCall.count({ where: { provider, finishedAt: null, leaseUntil: { gt: now } } });
        if (inFlight >= limit.concurrent) return null;
      }
      if (limit.requestsPerMinute !== null) {
        const lastMinute = await tx.providerCall.count({ where: { provider, startedAt: { gt: new Date(now.getTime() - 60_000) } } });
        if (lastMinute >= limit.requestsPerMinute) return null;
      }
      if (limit.tokensPerMinute !== null) {
        const spent = await tx.providerCall.aggregate({ where: { provider, startedAt: { gt: new Date(now.getTime() - 60_000) } }, _sum: { tokens: true } });
        const used = spent._sum.tokens ?? 0;
        if (used > 0 && used + tokens > limit.tokensPerMinute) return null;
      }
      const slot = newId();
      await tx.providerCall.create({ data: { id: slot, provider, holder, startedAt: now, leaseUntil: new Date(now.getTime() + CALL_LEASE_MS), tokens } });
      return slot;
    });
    if (id) return id;
    await new Promise((r) => setTimeout(r, SLOT_WAIT_MS));
  }
}

/** Ends a call's slot; `usedTokens` (the provider's reported input + output) replaces its estimate. A failed call keeps its estimate (the provider may have counted it). */
export async function releaseSlot(db: Database, id: string, usedTokens?: number): Promise<void> {
  await db.prisma.providerCall.updateMany({ where: { id }, data: { finishedAt: new Date(), ...(usedTokens !== undefined ? { tokens: usedTokens } : {}) } });
}

/** Forgets calls older than the sliding minute and the lease (kept small by the sweep). */
export async function pruneProviderCalls(db: Database, now: Date = new Date()): Promise<number> {
  const { count } = await db.prisma.providerCall.deleteMany({ where: { startedAt: { lt: new Date(now.getTime() - Math.max(60_000, CALL_LEASE_MS)) } } });
  return count;
}

/** A model wrapper that holds a provider slot for each call (nothing when the provider has no limit). */
export function limitedModels(db: Database, limits: Map<string, ProviderLimit>, holder: string = `${hostname()}:${process.pid}`) {
  return (client: ModelClient, model: string): ModelClient => {
    const provider = parseModelName(model)?.provider ?? model;
    const limit = limits.get(provider);
    if (!limit) return client;
    return {
      modelId: client.modelId,
      async converse(request) {
        const slot = await acquireSlot(db, provider, limit, holder, request.signal, limit.tokensPerMinute !== null ? requestTokenEstimate(request) : 0);
        let used: number | undefined;
        try {
          const response = await client.converse(request);
          used = response.inputTokens + response.outputTokens;
          return response;
        } finally {
          await releaseSlot(db, slot, used).catch(() => undefined);
        }
      },
    };
  };
}
