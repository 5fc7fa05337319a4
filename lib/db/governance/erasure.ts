import 'server-only';
/**
 * Erases the content of a run, or of every run of a subject (a dashboard user the run acts for, a
 * session id, an imported trace's user.id), in a tenant (another tenant's run or subject: not found).
 * Per run, one transaction replaces the content with ERASED — the question and answer, model text,
 * tool arguments (and the call signatures that hold them), results and previews, guard details, messages and recorded responses, the search
 * text, reviewers' comments, the governed run's spec and result, approval proposals and reasons,
 * journal results, the imported trace's raw OTLP rows — deletes the blobs no other run uses, and
 * appends an `erasure` event to the run's evidence chain. Killed half-way it leaves the content or
 * the erasure, never a mix; run again, it completes (a run already erased is reported, not redone).
 * Digests and the evidence stay, so `audit verify` stays intact and counts the erasures. A subject's
 * erasure also destroys its pseudonym key (redaction-store.ts), and the receipt says so.
 */
import { ERASED, evidenceBody, evidenceKey, signReceipt, type ErasedRun, type ErasureReceipt, type EvidenceKey } from '../../governance';
import { safeJsonParse } from '../../harness';
import { BLOB_PRUNE_LOCK } from '../core';
import { sha256 } from '../core';
import { getDb, type Database } from '../core';
import { Prisma as Sql } from '../generated/sqlite/client';
import { InvalidInputError, NotFoundError } from '../core';
import { appendEvidenceIn, withEvidenceTx, type Tx } from './governance-evidence';
import { destroyPseudonymKey } from './redaction-store';

/** The blob erased results point at (a JSON string, as stored results are JSON). */
const ERASED_BLOB = JSON.stringify(ERASED);
const ERASED_JSON = JSON.stringify({ erased: true });
/** Model turns rewritten per statement. */
const TURNS_PER_STATEMENT = 200;
/** Run statuses whose content may be erased (a paused or running run still needs it). */
const ERASABLE = new Set(['finished']);

/** Whether the run's chain already holds an erasure event. */
async function erasureEvent(tx: Tx | Database['prisma'], runId: string): Promise<{ seq: number } | null> {
  const rows = await tx.evidenceEvent.findMany({ where: { chain: runId, body: { contains: '"kind":"erasure"' } }, select: { seq: true, body: true }, orderBy: { seq: 'asc' } });
  const hit = rows.find((r) => {
    const parsed = safeJsonParse(r.body);
    return parsed.ok && (parsed.value as { kind?: unknown }).kind === 'erasure';
  });
  return hit ? { seq: hit.seq } : null;
}

function modelToolCalls(json: string): string {
  const parsed = safeJsonParse(json);
  if (!parsed.ok || !Array.isArray(parsed.value)) return '[]';
  return JSON.stringify(parsed.value.map((c) => ({ ...(c as Record<string, unknown>), arguments: { erased: true } })));
}

async function eraseIn(tx: Tx, provider: Database['provider'], key: EvidenceKey, runId: string, by: string, at: string): Promise<ErasedRun> {
  const already = await erasureEvent(tx, runId);
  if (already) {
    const head = await tx.evidenceChain.findUniqueOrThrow({ where: { chain: runId } });
    return { runId, evidenceSeq: already.seq, chainHead: head.hash, erased: {}, already: true };
  }
  const erased: Record<string, number> = {};
  const count = (table: string, n: number) => {
    if (n > 0) erased[table] = (erased[table] ?? 0) + n;
  };
  if (provider === 'postgres') await tx.$executeRaw`SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtext(${BLOB_PRUNE_LOCK}))) AS l`;
  const oldRefs = (await tx.runBlobRef.findMany({ where: { runId }, select: { hash: true } })).map((r) => r.hash);
  const erasedHash = sha256(ERASED_BLOB);
  await tx.blob.upsert({ where: { hash: erasedHash }, create: { hash: erasedHash, text: ERASED_BLOB, chars: ERASED_BLOB.length }, update: {} });

  count('Run', (await tx.run.updateMany({ where: { id: runId }, data: { query: ERASED, finalAnswer: ERASED, toolProgress: null, answerSoFar: null, checkpointHash: null, sessionId: null, traceUserId: null, createdBy: null } })).count);
  count('RunSearch', (await tx.runSearch.updateMany({ where: { runId }, data: { body: ERASED } })).count);
  // A tag is a label its producer chose, and may name the subject: it goes (the hourly rollup keeps only counts under it).
  count('RunTag', (await tx.runTag.deleteMany({ where: { runId } })).count);
  const turns = await tx.modelTurn.findMany({ where: { runId }, select: { idx: true, toolCalls: true } });
  // Rows at a time (a long run has thousands of turns and the transaction has a time limit).
  for (let i = 0; i < turns.length; i += TURNS_PER_STATEMENT) {
    const chunk = turns.slice(i, i + TURNS_PER_STATEMENT);
    const cases = Sql.join(
      chunk.map((t) => Sql.sql`WHEN ${t.idx} THEN ${modelToolCalls(t.toolCalls)}`),
      ' ',
    );
    await tx.$executeRaw`UPDATE "ModelTurn" SET "text" = ${ERASED}, "toolCalls" = CASE "idx" ${cases} END WHERE "runId" = ${runId} AND "idx" IN (${Sql.join(chunk.map((t) => t.idx))})`;
  }
  count('ModelTurn', turns.length);
  count(
    'ToolCall',
    (
      await tx.toolCall.updateMany({
        where: { runId },
        data: { arguments: ERASED_JSON, signature: ERASED, resultHash: erasedHash, resultPreview: ERASED, quarantinedText: '[]', validationError: null, mediaHash: null, policy: null, progress: null, schemaViolation: null },
      })
    ).count,
  );
  count('GuardEvent', (await tx.guardEvent.updateMany({ where: { runId }, data: { detail: ERASED } })).count);
  count('RunMessage', (await tx.runMessage.deleteMany({ where: { runId } })).count);
  count('ModelCall', (await tx.modelCall.updateMany({ where: { runId }, data: { messageRanges: '[]', responseHash: null, rawResponseHash: null } })).count);
  count('RunLabel', (await tx.runLabel.updateMany({ where: { runId, comment: { not: '' } }, data: { comment: ERASED } })).count);
  count('GovernedRun', (await tx.governedRun.updateMany({ where: { runId }, data: { spec: ERASED_JSON, result: ERASED_JSON, sealed: null, lastError: null } })).count);
  const requests = await tx.approvalRequest.findMany({ where: { runId }, select: { id: true } });
  count('ApprovalRequest', (await tx.approvalRequest.updateMany({ where: { runId }, data: { proposal: ERASED_JSON, sealedArguments: null, message: ERASED, outcomeDetail: null, resumeError: null } })).count);
  count('ApprovalDecision', (await tx.approvalDecision.updateMany({ where: { requestId: { in: requests.map((r) => r.id) } }, data: { reason: ERASED } })).count);
  count('EffectJournalEntry', (await tx.effectJournalEntry.updateMany({ where: { runId }, data: { result: null, error: null } })).count);
  const traces = await tx.otlpTrace.findMany({ where: { runId }, select: { tenant: true, traceId: true } });
  for (const t of traces) {
    count('OtlpSpan', (await tx.otlpSpan.deleteMany({ where: { tenant: t.tenant, traceId: t.traceId } })).count);
    count('OtlpLog', (await tx.otlpLog.deleteMany({ where: { tenant: t.tenant, traceId: t.traceId } })).count);
  }
  // The run keeps the one blob it still uses; blobs only it used go.
  await tx.runBlobRef.deleteMany({ where: { runId } });
  await tx.runBlobRef.create({ data: { runId, hash: erasedHash } });
  const stale = oldRefs.filter((h) => h !== erasedHash);
  for (let i = 0; i < stale.length; i += 500) {
    const chunk = stale.slice(i, i + 500);
    const gone = await tx.blob.deleteMany({ where: { hash: { in: chunk }, refs: { none: {} }, toolCalls: { none: {} }, messages: { none: {} } } });
    count('Blob', gone.count);
  }
  const detail = Object.entries(erased)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const event = await appendEvidenceIn(tx, key, evidenceBody({ kind: 'erasure', at, runId, actor: by, detail: `content erased: ${detail || 'nothing stored'}`, redactions: Object.keys(erased) }));
  return { runId, evidenceSeq: event.seq, chainHead: event.hash, erased, already: false };
}

/** The run ids a subject's erasure covers in `tenant`: runs made for the user, in the session, or of the imported user. */
async function runsOfSubject(db: Database, tenant: string, subject: string): Promise<string[]> {
  const rows = await db.prisma.run.findMany({ where: { tenant, OR: [{ createdBy: subject }, { sessionId: subject }, { traceUserId: subject }] }, select: { id: true }, orderBy: { startedAt: 'asc' } });
  return rows.map((r) => r.id);
}

/**
 * Erases run `request.run`, or every run of `request.subject`, in `tenant`, as `by` (the caller checks
 * the role); returns the signed receipt. Not found: another tenant's run, or a subject without runs here.
 */
export async function eraseContent(
  tenant: string,
  request: { run: string } | { subject: string },
  by: string,
  db: Database = getDb(),
  key: EvidenceKey = evidenceKey(),
  now: () => Date = () => new Date(),
): Promise<ErasureReceipt> {
  let ids: string[];
  let pseudonymKey: 'destroyed' | 'none' | undefined;
  if ('run' in request) {
    const run = await db.prisma.run.findUnique({ where: { id: request.run }, select: { tenant: true } });
    if (!run || run.tenant !== tenant) throw new NotFoundError('run', request.run);
    ids = [request.run];
  } else {
    if (request.subject.trim() === '') throw new InvalidInputError('subject', 'subject: name a user id, session id or imported user.id');
    ids = await runsOfSubject(db, tenant, request.subject);
    const hasKey = (await db.prisma.pseudonymKey.count({ where: { tenant, subject: request.subject } })) > 0;
    if (ids.length === 0 && !hasKey) {
      // A subject already erased has no runs left under its ids: its receipt is the erasures recorded.
      throw new NotFoundError('subject', request.subject);
    }
  }
  const unfinished = await db.prisma.run.findFirst({ where: { id: { in: ids }, status: { not: 'finished' } }, select: { id: true, status: true } });
  if (unfinished) throw new InvalidInputError('run', `run ${unfinished.id} is ${unfinished.status}: finish or cancel it before erasing its content`);
  const governed = await db.prisma.governedRun.findMany({ where: { runId: { in: ids } }, select: { runId: true, status: true } });
  const busy = governed.find((g) => !ERASABLE.has(g.status) && g.status !== 'cancelled');
  if (busy) throw new InvalidInputError('run', `run ${busy.runId} is ${busy.status}: finish or cancel it before erasing its content`);
  if ('subject' in request) {
    // Crypto-shredding first: from here on no token of the subject's can be linked back, whatever else happens.
    pseudonymKey = (await destroyPseudonymKey(db.prisma, tenant, request.subject)) ? 'destroyed' : 'none';
  }
  const at = now().toISOString();
  const runs: ErasedRun[] = [];
  for (const id of ids) runs.push(await withEvidenceTx(db.prisma, (tx) => eraseIn(tx, db.provider, key, id, by, at)));
  return signReceipt(key, { tenant, request, by, at, runs, ...(pseudonymKey ? { pseudonymKey } : {}) });
}

/** How many runs' content was erased (erasure events), for `audit verify`. */
export async function countErasures(db: Database = getDb()): Promise<number> {
  return db.prisma.evidenceEvent.count({ where: { body: { contains: '"kind":"erasure"' } } });
}
