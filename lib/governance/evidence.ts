/**
 * Evidence events: one per decision and effect, each carrying the hash of the event before it, so
 * editing, removing or reordering any stored event breaks the chain. An event holds digests, ids,
 * versions and statuses — never raw arguments, results, secrets or the model's reasoning.
 *
 *   hash(n) = SHA-256( canonicalJson({ seq: n, prevHash: hash(n-1), body }) ),  hash(0) = GENESIS
 */
import { z } from 'zod';
import { canonicalDigest } from './canonical-json';

/** The previous hash of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

export const EVIDENCE_KINDS = [
  'run_started',
  'policy_decision',
  'approval_requested',
  'approval_decided',
  'approval_refused',
  'revalidated',
  'effect',
  'reconciled',
  'run_finished',
] as const;

export const EvidenceBodySchema = z.object({
  kind: z.enum(EVIDENCE_KINDS),
  at: z.string(),
  runId: z.string().nullable(),
  step: z.number().int().nullable(),
  callId: z.string().nullable(),
  operationKey: z.string().nullable(),
  tool: z.string().nullable(),
  toolVersion: z.string().nullable(),
  policyVersion: z.string().nullable(),
  /** allow / deny / approval_required / approve / deny / a resolution. */
  decision: z.string().nullable(),
  rule: z.string().nullable(),
  effectStatus: z.string().nullable(),
  argumentsDigest: z.string().nullable(),
  resultDigest: z.string().nullable(),
  latencyMs: z.number().nullable(),
  /** JSON paths masked before anything about the call was recorded. */
  redactions: z.array(z.string()),
  /** Who acted (reviewer or actor id), when a person did. */
  actor: z.string().nullable(),
  /** A short, non-secret explanation (a refusal class, the changed field). */
  detail: z.string().nullable(),
});
export type EvidenceBody = z.infer<typeof EvidenceBodySchema>;

export const EvidenceEventSchema = z.object({ seq: z.number().int().min(1), prevHash: z.string(), hash: z.string(), body: EvidenceBodySchema });
export type EvidenceEvent = z.infer<typeof EvidenceEventSchema>;

/** A body with every optional field null, for callers that set a few. */
export function evidenceBody(fields: Partial<EvidenceBody> & Pick<EvidenceBody, 'kind' | 'at'>): EvidenceBody {
  return {
    runId: null,
    step: null,
    callId: null,
    operationKey: null,
    tool: null,
    toolVersion: null,
    policyVersion: null,
    decision: null,
    rule: null,
    effectStatus: null,
    argumentsDigest: null,
    resultDigest: null,
    latencyMs: null,
    redactions: [],
    actor: null,
    detail: null,
    ...fields,
  };
}

/** The hash of event `seq` with body `body` after `prevHash`. */
export function eventHash(seq: number, prevHash: string, body: EvidenceBody): string {
  return canonicalDigest({ seq, prevHash, body });
}

/** The event that follows `last` (or starts the chain). */
export function chainNext(last: Pick<EvidenceEvent, 'seq' | 'hash'> | null, body: EvidenceBody): EvidenceEvent {
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? GENESIS_HASH;
  return { seq, prevHash, hash: eventHash(seq, prevHash, body), body };
}

export type ChainVerification = { ok: true; count: number; head: string } | { ok: false; seq: number; reason: string };

/** Checks a whole chain, in seq order: contiguous numbering, links, and every hash recomputed. */
export function verifyChain(events: readonly EvidenceEvent[]): ChainVerification {
  let prev = GENESIS_HASH;
  for (const [i, e] of events.entries()) {
    const expectedSeq = i + 1;
    if (e.seq !== expectedSeq) return { ok: false, seq: expectedSeq, reason: `event ${expectedSeq} is missing (found seq ${e.seq})` };
    if (e.prevHash !== prev) return { ok: false, seq: e.seq, reason: `event ${e.seq} does not link to the event before it` };
    const body = EvidenceBodySchema.safeParse(e.body);
    if (!body.success) return { ok: false, seq: e.seq, reason: `event ${e.seq} has a malformed body` };
    if (eventHash(e.seq, e.prevHash, body.data) !== e.hash) return { ok: false, seq: e.seq, reason: `event ${e.seq} was edited (its hash does not match its content)` };
    prev = e.hash;
  }
  return { ok: true, count: events.length, head: prev };
}

/** Where evidence is appended; implementations serialise appends so the chain never forks. */
export interface EvidenceSink {
  append(body: EvidenceBody): Promise<EvidenceEvent>;
}

/** An in-memory sink (unit tests). */
export class MemoryEvidenceSink implements EvidenceSink {
  readonly events: EvidenceEvent[] = [];
  async append(body: EvidenceBody): Promise<EvidenceEvent> {
    const e = chainNext(this.events.at(-1) ?? null, body);
    this.events.push(e);
    return e;
  }
}
