/**
 * The records evidence is about, checked against the evidence: every governed run has its
 * `run_started` (and, once it ended, its `run_finished`), every journal entry the full sequence of its
 * steps (prepared → dispatched → its outcome, with `unknown` before any `reconciled_*`: every step
 * its current status or any recorded step implies), every ledger record an effect event with its operation key,
 * and every reviewer's decision its `approval_decided`. A chain cut short and patched up (an older
 * head restored, a whole chain deleted and an older anchor restored) verifies on its own; the records
 * it was about remain and show what is missing.
 *
 * Reviewers' labels are checked the same way: each stored label must match the `label` event that
 * recorded it (its chain and seq), digest, step, verdict and author, so a label edited in the database
 * (`update RunLabel set verdict='fail'`) breaks `audit verify` instead of passing as intact.
 */
import type { EvidenceBody } from './evidence';

export interface EvidenceSubjects {
  runs: readonly { runId: string; status: string }[];
  journal: readonly { operationKey: string; runId: string; status: string }[];
  ledger: readonly { operationKey: string; runId: string }[];
  decisions: readonly { requestId: string; runId: string; callId: string; reviewerId: string }[];
  /** Stored labels: `digest` as stored, `recomputed` from the row's columns now (the caller computes it). */
  labels?: readonly LabelSubject[];
}

/** A stored reviewer's label, as the cross-check reads it. */
export interface LabelSubject {
  id: string;
  runId: string;
  evidenceSeq: number;
  step: number | null;
  verdict: string;
  createdBy: string;
  category: string | null;
  digest: string;
  recomputed: string;
  /** Its comment was erased (erasure.ts): its digest cannot be recomputed, the rest is still checked. */
  commentErased: boolean;
}

/** An event's body with where it sits (chain and seq), for checks that point at one event. */
export interface PlacedBody {
  chain: string;
  seq: number;
  body: EvidenceBody;
}

/**
 * Why a stored label no longer matches the event that recorded it (null: it matches). `event` is the
 * body at the label's chain and seq, or undefined when there is none.
 */
export function labelMismatch(label: LabelSubject, event: EvidenceBody | undefined, erasedAfter = false, rewritten: ReadonlySet<string> = new Set()): string | null {
  const where = `label ${label.id} of run ${label.runId}`;
  if (!event || event.kind !== 'label') return `${where} has no label event (event ${label.evidenceSeq} of its chain)`;
  // An erased comment is accounted for only by an erasure recorded after the label.
  if (label.recomputed !== label.digest && !(label.commentErased && erasedAfter)) return `${where} was edited in the database (its content no longer matches its digest)`;
  // A comment `redact --rewrite` redacted: its new digest is the one the rewrite's signed event recorded.
  if (event.resultDigest !== label.digest && !rewritten.has(relabelKey(label.runId, label.evidenceSeq, label.digest))) return `${where} does not match its evidence event ${label.evidenceSeq} (the digest differs)`;
  if (event.step !== label.step) return `${where} does not match its evidence event ${label.evidenceSeq} (step)`;
  if (event.decision !== label.verdict) return `${where} does not match its evidence event ${label.evidenceSeq} (verdict ${label.verdict}, recorded ${event.decision ?? 'none'})`;
  if (event.actor !== label.createdBy) return `${where} does not match its evidence event ${label.evidenceSeq} (author)`;
  if (event.rule !== label.category) return `${where} does not match its evidence event ${label.evidenceSeq} (category)`;
  return null;
}

const relabelKey = (runId: string, seq: number, digest: string) => `${runId}\u0000${seq}\u0000${digest}`;

/** The labels `redaction_rewrite` events say were rewritten, keyed for labelMismatch's `rewritten`. */
export function rewrittenLabels(events: readonly Pick<PlacedBody, 'body'>[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) if (e.body.kind === 'redaction_rewrite') for (const l of e.body.relabelled ?? []) out.add(relabelKey(l.runId, l.seq, l.digest));
  return out;
}

/** The first stored label that does not match its event, or null. */
export function mismatchedLabel(labels: readonly LabelSubject[], events: readonly PlacedBody[]): MissingEvidence | null {
  if (labels.length === 0) return null;
  const at = new Map(events.map((e) => [`${e.chain}\u0000${e.seq}`, e.body]));
  const erasures = erasureSeqs(events);
  const rewritten = rewrittenLabels(events);
  for (const l of labels) {
    const reason = labelMismatch(l, at.get(`${l.runId}\u0000${l.evidenceSeq}`), (erasures.get(l.runId) ?? 0) > l.evidenceSeq, rewritten);
    if (reason) return { chain: l.runId, reason };
  }
  return null;
}

/**
 * The first `label` event of a run still stored (`storedRuns`) whose label row is gone, or null. A
 * label is never deleted on its own (erasure blanks its comment; retention and deleteRun take the
 * whole run), so a missing row was deleted in the database — or lost, as a run stored again once lost them.
 */
export function labelWithoutRow(labels: readonly LabelSubject[], events: readonly PlacedBody[], storedRuns: ReadonlySet<string>): MissingEvidence | null {
  const stored = new Set(labels.map((l) => `${l.runId}\u0000${l.evidenceSeq}`));
  for (const e of events) {
    if (e.body.kind !== 'label' || !storedRuns.has(e.chain) || stored.has(`${e.chain}\u0000${e.seq}`)) continue;
    return { chain: e.chain, reason: `label event ${e.seq} of run ${e.chain} has no stored label (deleted in the database)` };
  }
  return null;
}

export interface MissingEvidence {
  chain: string;
  reason: string;
}

/** Governed-run statuses after which the run's chain ends with `run_finished`. */
const ENDED = new Set(['finished', 'cancelled']);

/** The steps a journal status implies happened before it (effect-journal.ts's edges, shortest path). */
const STEPS_BEFORE: Readonly<Record<string, readonly string[]>> = {
  prepared: [],
  dispatched: ['prepared'],
  committed: ['prepared', 'dispatched'],
  failed: ['prepared', 'dispatched'],
  unknown: ['prepared', 'dispatched'],
  reconciled_committed: ['prepared', 'dispatched', 'unknown'],
  reconciled_absent: ['prepared', 'dispatched', 'unknown'],
};

/** Every step an entry must have evidence of: its status, each recorded step, and what each implies. */
function requiredSteps(status: string, recorded: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const s of [status, ...recorded]) {
    out.add(s);
    for (const before of STEPS_BEFORE[s] ?? []) out.add(before);
  }
  // In the journal's own order, so the first missing step is named.
  return Object.keys(STEPS_BEFORE).filter((s) => out.has(s));
}

/** The first record without its evidence, or null. `bodies` are every stored event's body. */
export function missingEvidence(subjects: EvidenceSubjects, bodies: readonly EvidenceBody[]): MissingEvidence | null {
  const started = new Set<string>();
  const finished = new Set<string>();
  const effects = new Set<string>();
  const effectStates = new Map<string, Set<string>>();
  const decided = new Set<string>();
  for (const b of bodies) {
    const run = b.runId ?? '';
    if (b.kind === 'run_started') started.add(run);
    else if (b.kind === 'run_finished') finished.add(run);
    else if ((b.kind === 'effect' || b.kind === 'reconciled') && b.operationKey !== null) {
      effects.add(`${run}\u0000${b.operationKey}`);
      const k = `${run}\u0000${b.operationKey}`;
      if (!effectStates.has(k)) effectStates.set(k, new Set());
      if (b.effectStatus) effectStates.get(k)!.add(b.effectStatus);
    } else if (b.kind === 'approval_decided') decided.add(`${run}\u0000${b.callId ?? ''}\u0000${b.actor ?? ''}`);
  }
  for (const r of subjects.runs) {
    if (!started.has(r.runId)) return { chain: r.runId, reason: `governed run ${r.runId} has no evidence (no run_started event)` };
    if (ENDED.has(r.status) && !finished.has(r.runId)) return { chain: r.runId, reason: `governed run ${r.runId} is ${r.status} but its evidence has no run_finished event` };
  }
  for (const j of subjects.journal) {
    if (!effects.has(`${j.runId}\u0000${j.operationKey}`)) return { chain: j.runId, reason: `journal entry ${j.operationKey} has no effect event` };
    const recorded = effectStates.get(`${j.runId}\u0000${j.operationKey}`) ?? new Set<string>();
    if (!recorded.has(j.status)) return { chain: j.runId, reason: `journal entry ${j.operationKey} is ${j.status} but no event records it so` };
    const missing = requiredSteps(j.status, recorded).find((s) => !recorded.has(s));
    if (missing) return { chain: j.runId, reason: `journal entry ${j.operationKey} is ${j.status} but its evidence has no ${missing} step` };
  }
  for (const l of subjects.ledger) {
    if (!effects.has(`${l.runId}\u0000${l.operationKey}`)) return { chain: l.runId, reason: `ledger record ${l.operationKey} has no effect event` };
  }
  for (const d of subjects.decisions) {
    if (!decided.has(`${d.runId}\u0000${d.callId}\u0000${d.reviewerId}`)) {
      return { chain: d.runId, reason: `${d.reviewerId}'s decision on approval request ${d.requestId} has no approval_decided event` };
    }
  }
  return null;
}

/** The newest erasure event's seq in each chain that has one. */
export function erasureSeqs(events: readonly PlacedBody[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) if (e.body.kind === 'erasure') out.set(e.chain, Math.max(out.get(e.chain) ?? 0, e.seq));
  return out;
}
