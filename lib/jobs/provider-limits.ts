/**
 * Per-provider limits shared by every worker: at most `concurrent` requests in flight,
 * `requestsPerMinute` requests and `tokensPerMinute` tokens in any sliding minute, per provider,
 * across all processes that share the database, as the provider counts them. Every request to the
 * provider (each attempt: a retry is a request too) passes the gate just before it is sent and
 * holds a ProviderCall row from then (with a lease, so a dead worker's requests stop counting).
 * The provider counts a request at some moment between its dispatch and its answer, so a request
 * stays in the window until a minute after it was answered: then no minute the provider may count
 * in ever holds more than the limit. Taking a slot is serialised per provider (PostgreSQL: an
 * advisory transaction lock). A caller that must wait computes when the window will have room
 * and sleeps exactly that long; one waiting for a request in flight to end is woken by
 * NOTIFY when a slot is released (never a polling loop). Workers, and so these limits, exist on
 * PostgreSQL only.
 *
 * Configured with STOCKROOM_PROVIDER_LIMITS, e.g. `openai-compatible=concurrent:16,rpm:600,tpm:200000;anthropic=concurrent:4`.
 *
 * Tokens are counted the way providers count them against a per-minute quota: a request reserves
 * its estimated input (characters / CHARS_PER_TOKEN) plus the most output it may produce
 * (maxTokens) before it is sent, and once answered holds the input + output the provider reported
 * instead. A request bigger than the whole limit still goes when the window is otherwise empty (it
 * could never go otherwise; the provider then refuses or throttles it, which the resilient client
 * handles).
 */
import { hostname } from 'node:os';
import pg from 'pg';
import type { ConverseRequest } from '../harness';
import type { ModelResponse } from '../harness';
import type { AttemptGate } from '../models';
import { CHARS_PER_TOKEN } from '../harness';
import type { Database } from '../db/core';
import { newId } from '../db/core';
import { parseModelName } from '../harness';

export { parseProviderLimits, type ProviderLimit } from './provider-limits-env';
import type { ProviderLimit } from './provider-limits-env';

/** The channel a released slot is announced on (payload: the provider). */
export const SLOT_CHANNEL = 'stockroom_provider_slot';
/** A waiter for a request in flight wakes at least this often, should a NOTIFY be missed (a listener reconnecting). */
const MISSED_NOTIFY_MS = 5_000;

/** How long a call may hold its slot before it stops counting (a worker died mid-call). */
export const CALL_LEASE_MS = 10 * 60_000;

/** The tokens a request may spend, as providers reserve them: its estimated input plus its output ceiling. */
export function requestTokenEstimate(request: Pick<ConverseRequest, 'system' | 'messages' | 'tools' | 'maxTokens'>): number {
  const chars = request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + request.maxTokens;
}

/** When a slot may be taken: now (its id), at a known time, or when a request in flight ends. */
type SlotAnswer = { slot: string } | { retryAt: number | null };

/**
 * Wakes waiters when a slot is released on any worker: one LISTEN connection per process (opened
 * on first wait), and a timer for the exact time the window has room.
 */
export class SlotWaiter {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly connectionString: string | null) {}

  private listen(): Promise<void> {
    if (!this.connectionString) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString! });
      client.on('notification', (n) => {
        for (const wake of this.waiters.get(n.payload ?? '') ?? []) wake();
      });
      client.on('error', () => {
        this.client = null;
        this.connecting = null; // the next wait reconnects; meanwhile waiters wake on MISSED_NOTIFY_MS
      });
      await client.connect();
      await client.query(`LISTEN ${SLOT_CHANNEL}`);
      this.client = client;
    })().catch(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Resolves at `retryAt` (an exact time), or when `provider` releases a slot (retryAt null), or on abort (rejects). */
  async wait(provider: string, retryAt: number | null, signal?: AbortSignal): Promise<void> {
    if (retryAt === null) await this.listen();
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const set = this.waiters.get(provider) ?? new Set<() => void>();
      this.waiters.set(provider, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      const ms = retryAt === null ? MISSED_NOTIFY_MS : Math.max(0, retryAt - Date.now());
      const timer = setTimeout(done, ms);
      if (retryAt === null) set.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connecting = null;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Takes a slot for `provider` now, or says when to ask again. A request counts from its dispatch
 * until a window after its answer (finishedAt), or while in flight under its lease.
 */
async function trySlot(db: Database, provider: string, limit: ProviderLimit, holder: string, tokens: number): Promise<SlotAnswer> {
  const windowMs = limit.windowMs ?? 60_000;
  return db.prisma.$transaction(async (tx) => {
    if (db.provider === 'postgres') await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'provider:' + provider}))`;
    const now = Date.now();
    const live = { provider, OR: [{ finishedAt: null, leaseUntil: { gt: new Date(now) } }, { finishedAt: { gt: new Date(now - windowMs) } }] };
    const rows = limit.concurrent !== null || limit.requestsPerMinute !== null || limit.tokensPerMinute !== null ? await tx.providerCall.findMany({ where: live, select: { finishedAt: true, tokens: true } }) : [];
    const inFlight = rows.filter((r) => r.finishedAt === null);
    // The finished ones leave the window a window after their answer, earliest first.
    const leaving = rows.flatMap((r) => (r.finishedAt ? [{ at: r.finishedAt.getTime() + windowMs, tokens: r.tokens }] : [])).sort((x, y) => x.at - y.at);
    let retryAt: number | null | undefined;
    const later = (at: number | null) => {
      // null (a request in flight must end) wins over any time; otherwise the latest time needed.
      if (retryAt === null || at === null) retryAt = null;
      else retryAt = Math.max(retryAt ?? 0, at);
    };
    if (limit.concurrent !== null && inFlight.length >= limit.concurrent) later(null);
    if (limit.requestsPerMinute !== null && rows.length >= limit.requestsPerMinute) {
      // Room once rows.length - rpm + 1 have left; those still in flight have not started leaving.
      const mustLeave = rows.length - limit.requestsPerMinute + 1;
      later(mustLeave <= leaving.length ? leaving[mustLeave - 1]!.at : null);
    }
    if (limit.tokensPerMinute !== null) {
      let used = rows.reduce((n, r) => n + r.tokens, 0);
      if (used > 0 && used + tokens > limit.tokensPerMinute) {
        let at: number | null = null;
        for (const l of leaving) {
          used -= l.tokens;
          if (used === 0 || used + tokens <= limit.tokensPerMinute) {
            at = l.at;
            break;
          }
        }
        later(at);
      }
    }
    if (retryAt !== undefined) return { retryAt };
    const slot = newId();
    await tx.providerCall.create({ data: { id: slot, provider, holder, startedAt: new Date(now), leaseUntil: new Date(now + CALL_LEASE_MS), tokens } });
    return { slot };
  });
}

/**
 * Takes a slot for `provider`, waiting while the limits are reached (until the exact time the
 * window has room, or a released slot's NOTIFY); returns the slot's id. `tokens` is what the
 * request reserves against a tokens-per-minute limit (requestTokenEstimate).
 */
export async function acquireSlot(db: Database, provider: string, limit: ProviderLimit, holder: string, signal?: AbortSignal, tokens = 0, waiter: SlotWaiter = new SlotWaiter(null)): Promise<string> {
  for (;;) {
    signal?.throwIfAborted();
    const answer = await trySlot(db, provider, limit, holder, tokens);
    if ('slot' in answer) return answer.slot;
    await waiter.wait(provider, answer.retryAt, signal);
  }
}

/**
 * Ends a request's slot; `usedTokens` (the provider's reported input + output) replaces its
 * estimate. A failed request keeps its estimate (the provider may have counted it). The other
 * workers waiting on this provider are told (NOTIFY).
 */
export async function releaseSlot(db: Database, id: string, usedTokens?: number, provider?: string): Promise<void> {
  await db.prisma.providerCall.updateMany({ where: { id }, data: { finishedAt: new Date(), ...(usedTokens !== undefined ? { tokens: usedTokens } : {}) } });
  if (provider !== undefined && db.provider === 'postgres') await db.prisma.$executeRaw`SELECT count(*) FROM (SELECT pg_notify(${SLOT_CHANNEL}, ${provider})) AS n`;
}

/** Forgets calls older than the sliding minute and the lease (kept small by the sweep). */
export async function pruneProviderCalls(db: Database, now: Date = new Date()): Promise<number> {
  const { count } = await db.prisma.providerCall.deleteMany({ where: { startedAt: { lt: new Date(now.getTime() - Math.max(60_000, CALL_LEASE_MS)) } } });
  return count;
}

/**
 * The gates of the limited providers, by model name (lib/runs/agent.ts ModelGate): each attempt
 * takes a slot just before it is sent and releases it once answered, keeping the provider's
 * reported usage. Nothing for a provider without a limit.
 */
export function providerGates(db: Database, limits: Map<string, ProviderLimit>, holder: string = `${hostname()}:${process.pid}`, waiter: SlotWaiter = new SlotWaiter(null)) {
  return (model: string): AttemptGate | undefined => {
    const provider = parseModelName(model)?.provider ?? model;
    const limit = limits.get(provider);
    if (!limit) return undefined;
    return async (request: ConverseRequest, signal: AbortSignal) => {
      const slot = await acquireSlot(db, provider, limit, holder, signal, limit.tokensPerMinute !== null ? requestTokenEstimate(request) : 0, waiter);
      return async (response: ModelResponse | null) => {
        await releaseSlot(db, slot, response && response.inputTokens !== null && response.outputTokens !== null ? response.inputTokens + response.outputTokens : undefined, provider);
      };
    };
  };
}
