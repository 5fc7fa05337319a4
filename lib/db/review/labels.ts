import 'server-only';
/**
 * Reviewers' labels and each tenant's label set. A label is appended, never edited: a newer label of
 * the same run and step supersedes the older one, which stays. Each label is written in one
 * transaction with an evidence event in the run's chain that carries the label's digest, so a stored
 * label changed afterwards no longer matches its event (unverifiedLabels; `audit verify` checks every label) and the chain itself cannot be
 * rewritten without breaking its signatures.
 */
import { labelDigest } from '../../eval';
import { currentLabels, DEFAULT_LABEL_SET, labelProblem, LabelSetSchema, type LabelContent, type LabelSet } from '../../eval';
import { evidenceBody, EvidenceBodySchema, erasureSeqs, labelMismatch, rewrittenLabels } from '../../governance';
import { evidenceKey } from '../../governance';
import type { EvidenceKey } from '../../governance';
import { safeJsonParse } from '../../harness';
import { getDb, type Database } from '../core';
import { InvalidInputError, NotFoundError } from '../core';
import { appendEvidenceIn, labelSubject, withEvidenceTx } from '../governance';
import { LABEL_COMMENT, lockedRunRedactions, mergeRedactions, redactorFor } from '../governance';
import { newId } from '../core';

/** A tenant's label set and its version (0: the default, never configured). */
export interface VersionedLabelSet extends LabelSet {
  version: number;
}

/** A stored label. */
export interface RunLabelDto extends LabelContent {
  id: string;
  createdByName: string;
  digest: string;
  evidenceSeq: number;
}

/** The tenant's newest label set, or the default (version 0). */
export async function currentLabelSet(tenant: string, db: Database = getDb()): Promise<VersionedLabelSet> {
  const row = await db.prisma.labelSet.findFirst({ where: { tenant }, orderBy: { version: 'desc' } });
  if (!row) return { ...DEFAULT_LABEL_SET, version: 0 };
  const parsed = safeJsonParse(row.labels);
  const set = parsed.ok ? LabelSetSchema.safeParse(parsed.value) : null;
  return set?.success ? { ...set.data, version: row.version } : { ...DEFAULT_LABEL_SET, version: row.version };
}

/** Stores `set` as the tenant's next label set version; labels already given keep the version they used. */
export async function saveLabelSet(tenant: string, set: LabelSet, by: string | null, db: Database = getDb()): Promise<VersionedLabelSet> {
  const parsed = LabelSetSchema.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'labels';
    throw new InvalidInputError(field, `${field}: ${issue?.message ?? 'invalid label set'}`);
  }
  const last = await db.prisma.labelSet.findFirst({ where: { tenant }, orderBy: { version: 'desc' }, select: { version: true } });
  const version = (last?.version ?? 0) + 1;
  await db.prisma.labelSet.create({ data: { tenant, version, labels: JSON.stringify(parsed.data), createdBy: by } });
  return { ...parsed.data, version };
}

export interface NewLabel {
  runId: string;
  step: number | null;
  verdict: string;
  category: string | null;
  score: number | null;
  comment: string;
  by: { id: string; name: string };
}

type Row = {
  id: string;
  runId: string;
  step: number | null;
  labelSetVersion: number;
  verdict: string;
  category: string | null;
  score: number | null;
  comment: string;
  createdBy: string;
  createdByName: string;
  createdAt: Date;
  digest: string;
  evidenceSeq: number;
};
const toDto = (r: Row): RunLabelDto => ({ ...r, createdAt: r.createdAt.toISOString() });

/**
 * Labels run `label.runId` of `tenant` (another tenant's run is not found) with the tenant's current
 * label set; a verdict or category outside the set, or a step the run does not have, is refused
 * naming the field. The label and its evidence event commit together or not at all.
 */
export async function addRunLabel(tenant: string, label: NewLabel, db: Database = getDb(), key: EvidenceKey = evidenceKey()): Promise<RunLabelDto> {
  const run = await db.prisma.run.findUnique({ where: { id: label.runId }, select: { tenant: true, steps: true, createdBy: true, sessionId: true, traceUserId: true } });
  if (!run || run.tenant !== tenant) throw new NotFoundError('run', label.runId);
  if (label.step !== null && label.step > run.steps) throw new InvalidInputError('step', `step ${label.step} is not in this run (steps 0 to ${run.steps})`);
  const set = await currentLabelSet(tenant, db);
  const problem = labelProblem(set, label);
  if (problem) throw new InvalidInputError(problem.field, problem.message);
  // Redaction at rest (issue 33): a comment keeps out what the tenant keeps out of its runs, under the
  // run's subject's key, and what it lost is listed on the run with the run's own redactions.
  const redactor = await redactorFor(db.prisma, tenant, run);
  const comment = redactor ? redactor.text(label.comment, LABEL_COMMENT) : label.comment;
  const redactions = redactor?.redactions() ?? [];
  const content: LabelContent = {
    runId: label.runId,
    step: label.step,
    labelSetVersion: set.version,
    verdict: label.verdict,
    category: label.category,
    score: label.score,
    comment,
    createdBy: label.by.id,
    createdAt: new Date().toISOString(),
  };
  const digest = labelDigest(content);
  const row = await withEvidenceTx(db.prisma, async (tx) => {
    const event = await appendEvidenceIn(
      tx,
      key,
      evidenceBody({
        kind: 'label',
        at: content.createdAt,
        runId: content.runId,
        step: content.step,
        decision: content.verdict,
        rule: content.category,
        resultDigest: digest,
        actor: content.createdBy,
        detail: `label set v${set.version}`,
      }),
    );
    if (redactions.length > 0) {
      // In the run's evidence transaction: labels of one run are listed one after another, none lost.
      // Read under the row's lock: a live run stored again meanwhile (replaceRun) keeps these entries.
      const stored = await lockedRunRedactions(tx, db.provider, content.runId);
      await tx.run.update({ where: { id: content.runId }, data: { redactions: mergeRedactions(stored, redactions) } });
    }
    return tx.runLabel.create({
      data: { ...content, id: newId(), tenant, createdAt: new Date(content.createdAt), createdByName: label.by.name, digest, evidenceSeq: event.seq },
    });
  });
  return toDto(row);
}

/** Every label of a run of `tenant` (history included), oldest first; another tenant's run has none. */
export async function labelsOfRun(tenant: string, runId: string, db: Database = getDb()): Promise<RunLabelDto[]> {
  const rows = await db.prisma.runLabel.findMany({ where: { tenant, runId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toDto);
}

/** The current run-level label (or, without one, the newest step label) of each run, for lists. */
export async function labelSummaries(tenant: string, runIds: readonly string[], db: Database = getDb()): Promise<Map<string, { verdict: string; category: string | null; labels: number }>> {
  if (runIds.length === 0) return new Map();
  const rows = await db.prisma.runLabel.findMany({ where: { tenant, runId: { in: [...runIds] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const current = currentLabels(rows.map(toDto));
  const out = new Map<string, { verdict: string; category: string | null; labels: number }>();
  for (const id of runIds) {
    const mine = current.filter((l) => l.runId === id);
    if (mine.length === 0) continue;
    const shown = mine.find((l) => l.step === null) ?? mine.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]!;
    out.set(id, { verdict: shown.verdict, category: shown.category, labels: mine.length });
  }
  return out;
}

/** The ids of `labels` whose row no longer matches the evidence event that recorded it (audit verify's label check). */
async function mismatchedLabelIds(labels: readonly RunLabelDto[], db: Database): Promise<Set<string>> {
  if (labels.length === 0) return new Set();
  const wanted = new Map<string, Set<number>>();
  for (const l of labels) wanted.set(l.runId, (wanted.get(l.runId) ?? new Set()).add(l.evidenceSeq));
  const events = await db.prisma.evidenceEvent.findMany({
    where: { OR: [...wanted].map(([chain, seqs]) => ({ chain, seq: { in: [...seqs] } })) },
    select: { chain: true, seq: true, body: true },
  });
  const at = new Map(
    events.map((e) => {
      const parsed = safeJsonParse(e.body);
      const body = parsed.ok ? EvidenceBodySchema.safeParse(parsed.value) : null;
      return [`${e.chain}\u0000${e.seq}`, body?.success ? body.data : undefined] as const;
    }),
  );
  const erasures = erasureSeqs(await db.prisma.evidenceEvent.findMany({ where: { chain: { in: [...wanted.keys()] }, body: { contains: '"kind":"erasure"' } }, select: { chain: true, seq: true, body: true } }).then((rows) =>
    rows.flatMap((r) => {
      const parsed = safeJsonParse(r.body);
      const body = parsed.ok ? EvidenceBodySchema.safeParse(parsed.value) : null;
      return body?.success ? [{ chain: r.chain, seq: r.seq, body: body.data }] : [];
    }),
  ));
  const rewritten = rewrittenLabels(
    (await db.prisma.evidenceEvent.findMany({ where: { chain: 'global', body: { contains: '"kind":"redaction_rewrite"' } }, select: { body: true } })).flatMap((r) => {
      const parsed = safeJsonParse(r.body);
      const body = parsed.ok ? EvidenceBodySchema.safeParse(parsed.value) : null;
      return body?.success ? [{ body: body.data }] : [];
    }),
  );
  return new Set(
    labels.filter((l) => labelMismatch(labelSubject(l), at.get(`${l.runId}\u0000${l.evidenceSeq}`), (erasures.get(l.runId) ?? 0) > l.evidenceSeq, rewritten) !== null).map((l) => l.id),
  );
}

/**
 * Checks each stored label of a run against the evidence event that recorded it: ids whose row no
 * longer matches its event's digest, step, verdict or author (an edit made outside addRunLabel).
 */
export async function unverifiedLabels(tenant: string, runId: string, db: Database = getDb()): Promise<string[]> {
  const labels = await labelsOfRun(tenant, runId, db);
  const bad = await mismatchedLabelIds(labels, db);
  return labels.filter((l) => bad.has(l.id)).map((l) => l.id);
}

/**
 * The current labels of a tenant's runs (one per run and step), newest runs first, for calibration:
 * a current label that no longer matches its evidence is left out and named in `unverified`, so a
 * verdict edited in the database never reaches a calibration.
 */
export async function currentTenantLabels(tenant: string, options: { take?: number } = {}, db: Database = getDb()): Promise<{ labels: RunLabelDto[]; unverified: RunLabelDto[] }> {
  const rows = await db.prisma.runLabel.findMany({ where: { tenant }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: options.take ?? 5_000 });
  const current = currentLabels(rows.map(toDto));
  const bad = await mismatchedLabelIds(current, db);
  return { labels: current.filter((l) => !bad.has(l.id)), unverified: current.filter((l) => bad.has(l.id)) };
}

/** Tool calls a queue item lists (its first ones; the count says how many there are). */
export const QUEUE_ITEM_CALLS = 40;

/** A run as the labelling queue shows it: the question, the answer, how it ended, its first tool calls and how many it made. */
export interface QueueItem {
  id: string;
  query: string;
  finalAnswer: string;
  terminationReason: string;
  setting: string;
  caseId: string | null;
  toolCalls: { step: number; name: string; isError: boolean }[];
  toolCallCount: number;
}

/** The queue items of `ids` in `tenant`, in the order of `ids` (ids of another tenant are left out). */
export async function queueItems(tenant: string, ids: readonly string[], db: Database = getDb()): Promise<QueueItem[]> {
  const rows = await db.prisma.run.findMany({
    where: { tenant, id: { in: [...ids] } },
    select: {
      id: true,
      query: true,
      finalAnswer: true,
      terminationReason: true,
      setting: true,
      caseId: true,
      toolCallCount: true,
      // The first calls are enough to judge by; a long run's thousands would make the queue page heavy.
      toolCalls: { select: { step: true, name: true, isError: true }, orderBy: { idx: 'asc' }, take: QUEUE_ITEM_CALLS },
    },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
