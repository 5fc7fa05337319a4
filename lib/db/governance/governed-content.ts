import 'server-only';
/**
 * Redaction at rest for the records a governed run writes (issue 33): its spec and latest result
 * (GovernedRun), the proposal its approval request shows reviewers (ApprovalRequest), and its
 * effect journal's results and errors (EffectJournalEntry). The tenant's classes are taken out before
 * anything is written, under the run's subject's key, and each row lists its `redactions`.
 *
 * What a resume needs is not what is shown. A run paused on an approval is continued — maybe in
 * another process, after a restart — with the real question, the real messages and the real
 * arguments of the call it waits on, and the approval is bound to a digest computed over the real
 * proposal (the re-check before dispatch recomputes it over the call about to be sent). So, only
 * while a dispatch may still come, the real content is also kept *sealed* (AES-256-GCM under a key
 * derived from the evidence key, which is not in the database: sealing.ts) beside the redacted copy:
 * `GovernedRun.sealed` holds the real spec and result, `ApprovalRequest.sealedArguments` the real
 * arguments. The governance service reads the real values back (getGovernedRunOrThrow,
 * findApprovalForCall); pages read the redacted ones. The sealed copies are dropped as soon as the
 * run moves past the dispatch (it finishes or pauses on another call: the earlier request's arguments
 * go), when it is cancelled, and on erasure. A database copy alone opens none of them; one taken while
 * a run is paused holds them only sealed. Nothing is sealed when the tenant redacts nothing or when
 * redaction left the content as it was (the stored copy then is the real one).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sealFor, UnsealError, unsealFor, type Redactor } from '../../governance';
import type { JsonValue, RunResult } from '../../harness';
import type { Database } from '../core';
import { DbError } from '../core';
import type { Tx } from './governance-evidence';
import { redactionsText, redactorFor, rootKey } from './redaction-store';
import { redactRun } from './run-redaction';

type Client = Database['prisma'] | Tx;

/** The sealing purpose of governed-run content (a value sealed for it opens as nothing else). */
const PURPOSE = 'stockroom governed-run content v1';

/**
 * JSON text `json`, compressed (deflate, fastest level: a run's result shrinks about tenfold, so the
 * sealed copy costs little to write beside the redacted one) and sealed.
 */
export function sealContent(json: string): string {
  return sealFor(PURPOSE, deflateRawSync(Buffer.from(json, 'utf8'), { level: 1 }), rootKey());
}

/** The JSON value `sealContent` sealed; a DbError naming `what` when it does not open. */
export function openContent(sealed: string, what: string): unknown {
  try {
    return JSON.parse(inflateRawSync(unsealFor(PURPOSE, sealed, rootKey())).toString('utf8')) as unknown;
  } catch (err) {
    const why = err instanceof UnsealError && err.reason === 'unopenable' ? 'cannot be opened with this deployment’s evidence key (was the key changed?)' : 'is unreadable';
    throw new DbError('corrupt', `${what}: its sealed content ${why}`, { cause: err });
  }
}

/** A redactor for content of a governed run of `tenant` acting for `subject` (null: the tenant redacts nothing). */
export function governedRedactor(client: Client, tenant: string, subject: string): Promise<Redactor | null> {
  return redactorFor(client, tenant, { createdBy: subject });
}

/** A RunResult with everything the redactor takes out of a stored run, its resume checkpoint included. */
function redactResult(result: RunResult, r: Redactor): RunResult {
  return redactRun(result, r).run;
}

/** What a GovernedRun row stores of `spec` and `result`. */
export interface GovernedRunContent {
  spec: string;
  result: string;
  /** The real spec and result, sealed, when the run may still dispatch and redaction changed them. */
  sealed: string | null;
  redactions: string | null;
}

/**
 * The stored form of a governed run's spec and result. `resumable`: the run is paused (or resuming),
 * so the real content is kept sealed for the resume; otherwise it goes.
 */
export async function governedRunContent(client: Client, tenant: string, subject: string, spec: JsonValue, result: RunResult, resumable: boolean): Promise<GovernedRunContent> {
  const realSpec = JSON.stringify(spec);
  const realResult = JSON.stringify(result);
  const r = await governedRedactor(client, tenant, subject);
  if (!r) return { spec: realSpec, result: realResult, sealed: null, redactions: null };
  const shownSpec = JSON.stringify(r.json(spec, 'spec'));
  const shownResult = JSON.stringify(redactResult(result, r));
  const changed = shownSpec !== realSpec || shownResult !== realResult;
  return { spec: shownSpec, result: shownResult, sealed: resumable && changed ? sealContent(`{"spec":${realSpec},"result":${realResult}}`) : null, redactions: redactionsText(r.redactions()) };
}

/** The real spec and result of a GovernedRun row: from its sealed copy when it has one. */
export function realGovernedContent(row: { runId: string; spec: string; result: string; sealed: string | null }): { spec: string; result: string } {
  if (!row.sealed) return { spec: row.spec, result: row.result };
  const opened = openContent(row.sealed, `governed run ${row.runId}`) as { spec?: unknown; result?: unknown } | null;
  if (!opened || typeof opened !== 'object' || opened.result === undefined) throw new DbError('corrupt', `governed run ${row.runId}: its sealed content is unreadable`);
  return { spec: JSON.stringify(opened.spec ?? null), result: JSON.stringify(opened.result) };
}

/** What an ApprovalRequest row stores of its proposal's arguments. */
export async function proposalContent<P extends { tenant: string; actor: string; arguments: JsonValue }>(
  client: Client,
  proposal: P,
): Promise<{ proposal: string; sealedArguments: string | null; redactions: string | null }> {
  const r = await governedRedactor(client, proposal.tenant, proposal.actor);
  if (!r) return { proposal: JSON.stringify(proposal), sealedArguments: null, redactions: null };
  const shown = r.json(proposal.arguments, 'proposal arguments');
  const changed = JSON.stringify(shown) !== JSON.stringify(proposal.arguments);
  return { proposal: JSON.stringify({ ...proposal, arguments: shown }), sealedArguments: changed ? sealContent(JSON.stringify(proposal.arguments)) : null, redactions: redactionsText(r.redactions()) };
}
