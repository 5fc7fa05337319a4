import 'server-only';
/**
 * `redact --rewrite` for a governed run's own records (redaction-rewrite.ts runs it in the batch's
 * transaction): stored as governance-runs.ts, governance-approvals.ts and governance-journal.ts store
 * them at rest (governed-content.ts), from the real content where it is kept sealed.
 */
import type { Redactor } from '../../governance';
import { RunResultSchema, type JsonValue, type RunResult } from '../../harness';
import type { Tx } from './governance-evidence';
import { governedRedactor, governedRunContent, openContent, proposalContent, realGovernedContent } from './governed-content';
import { mergeRedactions, storedRedactions } from './redaction-store';

/** JSON text parsed (text that is not JSON: the text itself). */
export const jsonOf = (text: string): JsonValue => {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
};

/**
 * The run's governed record (spec and latest result) under the current classes, as governance-runs.ts
 * stores it: from its real content (the sealed copy, while it has one), the real content sealed when
 * the run may still dispatch. Compare-and-set on its state version: a run that moved on meanwhile was
 * stored under the current classes by that move. Whether it was rewritten.
 */
export async function rewriteGovernedRun(tx: Tx, runId: string, tenant: string): Promise<number> {
  const row = await tx.governedRun.findUnique({ where: { runId } });
  if (!row || row.tenant !== tenant) return 0;
  const real = realGovernedContent(row);
  const resumable = row.status === 'paused' || row.status === 'resuming' || row.status === 'running';
  // An erased record (`{"erased":true}`) is no run any more: nothing in it to take out.
  const result = RunResultSchema.safeParse(jsonOf(real.result));
  if (!result.success) return 0;
  const content = await governedRunContent(tx, tenant, row.actor, jsonOf(real.spec), result.data as RunResult, resumable);
  if (content.spec === row.spec && content.result === row.result) return 0;
  // From the sealed (real) content every class is found again: its list is whole. Otherwise what was taken out before is kept.
  const redactions = row.sealed ? content.redactions : mergeRedactions(row.redactions, JSON.parse(content.redactions ?? '[]'));
  const { count } = await tx.governedRun.updateMany({ where: { runId, stateVersion: row.stateVersion }, data: { ...content, redactions } });
  return count;
}

/**
 * The run's approval requests (the arguments reviewers see), their decisions' reasons and its effect
 * journal's results and errors under the current classes (governance-approvals.ts, governance-journal.ts).
 * A request's real arguments are kept sealed when it had them sealed, or when it is still pending
 * or approved while its run may dispatch (a resume re-checks the approval against the real call).
 * The reasons recorded in the decisions' evidence events stay as signed. How many rows changed.
 */
export async function rewriteGovernedRecords(tx: Tx, runId: string, tenant: string, r: Redactor): Promise<number> {
  const run = await tx.governedRun.findUnique({ where: { runId }, select: { tenant: true, status: true, actor: true } });
  if (!run || run.tenant !== tenant) return 0;
  const actor = run.actor;
  const mayDispatch = run.status === 'paused' || run.status === 'resuming' || run.status === 'running';
  let n = 0;
  for (const req of await tx.approvalRequest.findMany({ where: { runId, tenant }, include: { decisions: true } })) {
    const shown = jsonOf(req.proposal) as { tenant: string; actor: string; arguments: JsonValue };
    const real = req.sealedArguments ? (openContent(req.sealedArguments, `approval request ${req.id}`) as JsonValue) : shown.arguments;
    const content = await proposalContent(tx, { ...shown, arguments: real });
    const keepSealed = req.sealedArguments !== null || (mayDispatch && (req.status === 'pending' || req.status === 'approved'));
    const sealedArguments = keepSealed ? (content.sealedArguments ?? req.sealedArguments) : null;
    const redactions = req.sealedArguments ? content.redactions : mergeRedactions(req.redactions, storedRedactions(content.redactions));
    if (content.proposal !== req.proposal) {
      await tx.approvalRequest.update({ where: { id: req.id }, data: { proposal: content.proposal, sealedArguments, redactions } });
      n += 1;
    }
    for (const d of req.decisions) {
      const reason = r.text(d.reason, 'reviewer reason');
      if (reason === d.reason) continue;
      await tx.approvalDecision.update({ where: { requestId_reviewerId: { requestId: d.requestId, reviewerId: d.reviewerId } }, data: { reason } });
      n += 1;
    }
  }
  for (const e of await tx.effectJournalEntry.findMany({ where: { runId } })) {
    // Its own redactor: each entry lists what it lost.
    const j = await governedRedactor(tx, tenant, actor);
    if (!j) break;
    const result = e.result === null ? null : JSON.stringify(j.json(jsonOf(e.result), 'journal result'));
    const error = e.error === null ? null : j.text(e.error, 'journal error');
    if (result === e.result && error === e.error) continue;
    await tx.effectJournalEntry.update({ where: { operationKey: e.operationKey }, data: { result, error, redactions: mergeRedactions(e.redactions, j.redactions()) } });
    n += 1;
  }
  return n;
}
