/**
 * Evidence events: one per decision and effect, each carrying the hash of the event before it, so
 * editing, removing or reordering any stored event breaks the chain. An event holds digests, ids,
 * versions and statuses — never raw arguments, results, secrets or the model's reasoning.
 *
 *   hash(n) = SHA-256( canonicalJson({ seq: n, prevHash: hash(n-1), body }) ),  hash(0) = GENESIS
 *
 * There is one chain per run (appends of different runs never contend), each event and each chain's
 * head is signed with a key kept outside the database (evidence-signing.ts), and every chain is
 * registered once in a signed anchor: recomputing the hashes after a forgery, deleting a chain's last
 * events or the whole chain, or editing any column no longer verifies (evidence-verify.ts).
 */
import { z } from 'zod';
import { canonicalDigest } from './canonical-json';
import { anchorNext, signEvent, signHead, TEST_EVIDENCE_KEY, type AnchorHead, type ChainHead, type EvidenceKey } from './evidence-signing';

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
  /** An admin armed or disarmed a demonstration fault (instructor mode); in the global chain. */
  'demo_fault',
  /** A reviewer labelled the run or one of its steps (the label's digest; in the run's chain). */
  'label',
  /** The run's content was erased (who, what was removed); its digests and this chain stay. */
  'erasure',
  /**
   * Runs the tenant's retention schedule removed (a tombstone in the global chain): each run's id and
   * its chain's head digest (null: it had no chain), the policy version, when.
   */
  'retention',
  /**
   * The redaction classes a tenant keeps out of storage changed (issue 33), in the global chain: the
   * tenant (`rule`), its classes and pattern names (`redactions`; empty: none any more), when they
   * first applied. Content stored before is as it was stored then; `audit verify` says so.
   */
  'redaction_classes',
  /**
   * `redact --rewrite` rewrote content a tenant stored before its current classes applied (issue 33),
   * one event per batch in the global chain: the tenant (`rule`), the classes (`redactions`), each
   * rewritten run with its chain's head digest (`rewritten`; a rewrite appends nothing to a run's
   * chain), and each reviewer's label whose comment it rewrote with the label's new digest (`relabelled`).
   */
  'redaction_rewrite',
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
  /** `retention` only: the runs removed, each with its evidence chain's head digest (null: none). Absent elsewhere. */
  removed: z.array(z.object({ runId: z.string(), chainHead: z.string().nullable() })).optional(),
  /** `redaction_rewrite` only: the runs whose content was rewritten, each with its chain's head digest (null: none). */
  rewritten: z.array(z.object({ runId: z.string(), chainHead: z.string().nullable() })).optional(),
  /** `redaction_rewrite` only: labels whose comment was rewritten — the label's event (run chain, seq) and its new digest. */
  relabelled: z.array(z.object({ runId: z.string(), seq: z.number().int(), digest: z.string() })).optional(),
});
export type EvidenceBody = z.infer<typeof EvidenceBodySchema>;

export const EvidenceEventSchema = z.object({
  chain: z.string(),
  seq: z.number().int().min(1),
  prevHash: z.string(),
  hash: z.string(),
  signature: z.string(),
  body: EvidenceBodySchema,
});
export type EvidenceEvent = z.infer<typeof EvidenceEventSchema>;

/** Everything verification reads. */
export interface StoredEvidence {
  events: EvidenceEvent[];
  heads: ChainHead[];
  anchor: AnchorHead | null;
}

/** The chain an event belongs to: its run's, or `global` for events without a run. */
export function chainOf(body: Pick<EvidenceBody, 'runId'>): string {
  return body.runId ?? GLOBAL_CHAIN;
}
export const GLOBAL_CHAIN = 'global';

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

/** The event that follows `last` in `body`'s chain (or starts it), signed with `key`. */
export function chainNext(key: EvidenceKey, last: Pick<EvidenceEvent, 'seq' | 'hash'> | null, body: EvidenceBody): EvidenceEvent {
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? GENESIS_HASH;
  const hash = eventHash(seq, prevHash, body);
  const chain = chainOf(body);
  return { chain, seq, prevHash, hash, signature: signEvent(key, { chain, seq, hash, runId: body.runId }), body };
}

/** Where evidence is appended; implementations serialise appends per chain so no chain forks. */
export interface EvidenceSink {
  append(body: EvidenceBody): Promise<unknown>;
  /** Appends several bodies at once, in order (one round of storage instead of one per event). */
  appendMany?(bodies: readonly EvidenceBody[]): Promise<unknown>;
}

/** An in-memory sink (unit tests): the same chains, heads and anchor as the database keeps. */
export class MemoryEvidenceSink implements EvidenceSink {
  readonly events: EvidenceEvent[] = [];
  readonly heads = new Map<string, ChainHead>();
  anchor: AnchorHead | null = null;

  constructor(private readonly key: EvidenceKey = TEST_EVIDENCE_KEY) {}

  async append(body: EvidenceBody): Promise<EvidenceEvent> {
    const chain = chainOf(body);
    const head = this.heads.get(chain) ?? { chain, anchorSeq: null, seq: 0, hash: GENESIS_HASH, signature: '' };
    const e = chainNext(this.key, head.seq === 0 ? null : head, body);
    this.events.push(e);
    this.heads.set(chain, signHead(this.key, { chain, anchorSeq: head.anchorSeq, seq: e.seq, hash: e.hash }));
    return e;
  }

  /** Registers every unsealed chain in the anchor (what the sweeper does in the database). */
  seal(): void {
    for (const head of this.heads.values()) {
      if (head.anchorSeq !== null) continue;
      this.anchor = anchorNext(this.key, this.anchor, head.chain);
      this.heads.set(head.chain, signHead(this.key, { ...head, anchorSeq: this.anchor.count }));
    }
  }

  /** What verification reads: events, heads and the anchor. */
  snapshot(): StoredEvidence {
    return { events: [...this.events], heads: [...this.heads.values()], anchor: this.anchor };
  }
}
