/**
 * The records evidence is about, checked against the evidence: every governed run has its
 * `run_started` (and, once it ended, its `run_finished`), every journal entry an effect event with its
 * operation key in its current status, every ledger record an effect event with its operation key,
 * and every reviewer's decision its `approval_decided`. A chain cut short and patched up (an older
 * head restored, a whole chain deleted and an older anchor restored) verifies on its own; the records
 * it was about remain and show what is missing.
 */
import type { EvidenceBody } from './evidence';

export interface EvidenceSubjects {
  runs: readonly { runId: string; status: string }[];
  journal: readonly { operationKey: string; runId: string; status: string }[];
  ledger: readonly { operationKey: string; runId: string }[];
  decisions: readonly { requestId: string; runId: string; callId: string; reviewerId: string }[];
}

export interface MissingEvidence {
  chain: string;
  reason: string;
}

/** Governed-run statuses after which the run's chain ends with `run_finished`. */
const ENDED = new Set(['finished', 'cancelled']);

/** The first record without its evidence, or null. `bodies` are every stored event's body. */
export function missingEvidence(subjects: EvidenceSubjects, bodies: readonly EvidenceBody[]): MissingEvidence | null {
  const started = new Set<string>();
  const finished = new Set<string>();
  const effects = new Set<string>();
  const effectStates = new Set<string>();
  const decided = new Set<string>();
  for (const b of bodies) {
    const run = b.runId ?? '';
    if (b.kind === 'run_started') started.add(run);
    else if (b.kind === 'run_finished') finished.add(run);
    else if ((b.kind === 'effect' || b.kind === 'reconciled') && b.operationKey !== null) {
      effects.add(`${run}\u0000${b.operationKey}`);
      effectStates.add(`${run}\u0000${b.operationKey}\u0000${b.effectStatus ?? ''}`);
    } else if (b.kind === 'approval_decided') decided.add(`${run}\u0000${b.callId ?? ''}\u0000${b.actor ?? ''}`);
  }
  for (const r of subjects.runs) {
    if (!started.has(r.runId)) return { chain: r.runId, reason: `governed run ${r.runId} has no evidence (no run_started event)` };
    if (ENDED.has(r.status) && !finished.has(r.runId)) return { chain: r.runId, reason: `governed run ${r.runId} is ${r.status} but its evidence has no run_finished event` };
  }
  for (const j of subjects.journal) {
    if (!effects.has(`${j.runId}\u0000${j.operationKey}`)) return { chain: j.runId, reason: `journal entry ${j.operationKey} has no effect event` };
    if (!effectStates.has(`${j.runId}\u0000${j.operationKey}\u0000${j.status}`)) {
      return { chain: j.runId, reason: `journal entry ${j.operationKey} is ${j.status} but no event records it so` };
    }
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
