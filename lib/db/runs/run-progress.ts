import 'server-only';
/** How far a stored run has got: what a page following a live run polls (one small row read). */
import { redactorFor } from '../governance';
import { getDb, type Database } from '../core';
import { parseStoredJson } from '../core';
import { NotFoundError } from '../core';
import type { Prisma as P } from '../generated/sqlite/client';

export interface RunProgressDto {
  /** `running` while a live run is being stored step by step; `finished` or `paused` after. */
  status: string;
  steps: number;
  modelCallCount: number;
  terminationReason: string;
  /** The newest progress a tool call in flight reported (MCP notifications/progress), or null. */
  toolProgress: ToolProgressDto | null;
  /** The answer a streamed model call in flight has sent so far (the step it will be), or null. */
  answerSoFar: AnswerSoFarDto | null;
}

/** A streamed model answer as it forms: the text received so far for a step not yet stored. */
export interface AnswerSoFarDto {
  step: number;
  text: string;
  /** The text was cut to ANSWER_SO_FAR_MAX_CHARS (the stored step will hold all of it). */
  truncated: boolean;
  at: string;
}

/** The most of a forming answer kept while it streams (its start: what a reader follows). */
export const ANSWER_SO_FAR_MAX_CHARS = 8_000;

/** What a running tool call last said of its progress. */
export interface ToolProgressDto {
  step: number;
  toolUseId: string;
  name: string;
  progress: number;
  total: number | null;
  message: string | null;
  at: string;
}

export async function getRunProgressOrThrow(id: string, db: Database = getDb()): Promise<RunProgressDto> {
  const row = await db.prisma.run.findUnique({
    where: { id },
    select: { status: true, steps: true, modelCallCount: true, terminationReason: true, toolProgress: true, answerSoFar: true },
  });
  if (!row) throw new NotFoundError('run', id);
  const { toolProgress: rawTool, answerSoFar: rawAnswer, ...rest } = row;
  const toolProgress = storedObject<ToolProgressDto>(rawTool, 'tool progress');
  const answerSoFar = storedObject<AnswerSoFarDto>(rawAnswer, 'answer so far');
  // Progress of a step already stored is over: only what belongs to a step still running is shown.
  const inFlight = <T extends { step: number }>(p: T | null) => (p && p.step > row.steps && row.status === 'running' ? p : null);
  return { ...rest, toolProgress: inFlight(toolProgress), answerSoFar: inFlight(answerSoFar) };
}

function storedObject<T>(raw: string | null, what: string): T | null {
  const parsed = raw === null ? null : parseStoredJson(raw, what);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as unknown as T) : null;
}

/**
 * Records the answer a running run's model is streaming for `step` (redacted at rest like the run's
 * own text). Written only while that step is not stored yet: a late write never outlives its step.
 */
export async function storeAnswerSoFar(id: string, partial: { step: number; text: string }, db: Database = getDb()): Promise<void> {
  const truncated = partial.text.length > ANSWER_SO_FAR_MAX_CHARS;
  let text = truncated ? partial.text.slice(0, ANSWER_SO_FAR_MAX_CHARS) : partial.text;
  const run = await db.prisma.run.findUnique({ where: { id }, select: { tenant: true, createdBy: true, sessionId: true, traceUserId: true } });
  const redactor = run ? await redactorFor(db.prisma, run.tenant, run) : null;
  if (redactor) text = redactor.text(text, 'answer so far');
  const value: AnswerSoFarDto = { step: partial.step, text, truncated, at: new Date().toISOString() };
  await db.prisma.run.updateMany({ where: { id, status: 'running', steps: { lt: partial.step } }, data: { answerSoFar: JSON.stringify(value) } });
}

/** Records a running live run's newest tool progress (a run no longer running is left alone). */
export async function storeToolProgress(id: string, progress: Omit<ToolProgressDto, 'at'>, db: Database = getDb()): Promise<void> {
  let message = progress.message;
  if (message) {
    // A tool's progress message is content too: kept out of storage like the run's (redaction at rest, issue 33).
    const run = await db.prisma.run.findUnique({ where: { id }, select: { tenant: true, createdBy: true, sessionId: true, traceUserId: true } });
    const redactor = run ? await redactorFor(db.prisma, run.tenant, run) : null;
    if (redactor) message = redactor.text(message, 'tool progress');
  }
  const value: ToolProgressDto = { ...progress, message, at: new Date().toISOString() };
  await db.prisma.run.updateMany({ where: { id, status: 'running' }, data: { toolProgress: JSON.stringify(value) } });
}

/** What an interrupted run says instead of an answer. */
export const INTERRUPTED_ANSWER = 'The server stopped while this run was running; it keeps the steps stored before that.';

/**
 * Marks runs still `running` whose last stored step is older than `staleBefore` as ended (a server
 * start: their process is gone, so no step will come). A run another live process is still storing
 * rewrites its whole record at its next step, so a too-early mark undoes itself.
 */
export async function failInterruptedRuns(staleBefore: Date, db: Database = getDb()): Promise<number> {
  // An imported trace still being assembled is `running` too, but no process of ours runs it.
  return endRunsUnfinished({ status: { in: ['running', 'stopping'] }, source: 'harness', createdAt: { lt: staleBefore } }, INTERRUPTED_ANSWER, db);
}

/**
 * Ends the runs `where` selects that will get no more steps (interrupted, stopped while queued, refused
 * or given up on by a worker): finished as MODEL_ERROR, with `answer` saying why. Returns how many.
 */
export async function endRunsUnfinished(where: P.RunWhereInput, answer: string, db: Database = getDb()): Promise<number> {
  const { count } = await db.prisma.run.updateMany({ where, data: { status: 'finished', terminationReason: 'MODEL_ERROR', finalAnswer: answer } });
  return count;
}

/**
 * Claims a queued run for a worker by compare-and-set (queued → running). `taken-over`: it was
 * already running, so the worker that took it died and this one runs it again from the start;
 * `not-queued`: stopped while queued, deleted or finished, so nothing runs.
 */
export async function claimQueuedRun(id: string, db: Database = getDb()): Promise<'claimed' | 'taken-over' | 'not-queued'> {
  const claimed = await db.prisma.run.updateMany({ where: { id, status: 'queued' }, data: { status: 'running' } });
  if (claimed.count > 0) return 'claimed';
  const row = await db.prisma.run.findUnique({ where: { id }, select: { status: true } });
  return row?.status === 'running' ? 'taken-over' : 'not-queued';
}

/** A run's status, or null when it does not exist (a live run polls it for a stop request). */
export async function runStatus(id: string, db: Database = getDb()): Promise<string | null> {
  const row = await db.prisma.run.findUnique({ where: { id }, select: { status: true } });
  return row?.status ?? null;
}

/** Marks a running run `stopping` (its process polls the row); true when it was running. */
export async function markRunStopping(id: string, db: Database = getDb()): Promise<boolean> {
  const { count } = await db.prisma.run.updateMany({ where: { id, status: 'running' }, data: { status: 'stopping' } });
  return count > 0;
}

/** Fewest milliseconds between two progress writes of one run (a chatty tool is sampled, the newest kept). */
export const TOOL_PROGRESS_WRITE_MS = 250;
/** Fewest milliseconds between two writes of a forming answer (each write holds all the text so far). */
export const ANSWER_SO_FAR_WRITE_MS = 150;

/**
 * A harness onToolProgress observer for run `id` that stores the newest progress at most every
 * TOOL_PROGRESS_WRITE_MS; never throws (progress is best effort: the run's record is what counts).
 */
export function toolProgressRecorder(id: string, db?: Database): (p: Omit<ToolProgressDto, 'at' | 'total' | 'message'> & { total?: number; message?: string }) => void {
  const write = sampledWriter(TOOL_PROGRESS_WRITE_MS, (p: Omit<ToolProgressDto, 'at'>) => storeToolProgress(id, p, db));
  return (p) => write({ step: p.step, toolUseId: p.toolUseId, name: p.name, progress: p.progress, total: p.total ?? null, message: p.message ?? null });
}

/**
 * A harness onModelText observer for run `id`: stores the answer so far at most every
 * ANSWER_SO_FAR_WRITE_MS, the newest kept; never throws (the run's record is what counts).
 */
export function answerSoFarRecorder(id: string, db?: Database): (partial: { step: number; text: string }) => void {
  return sampledWriter(ANSWER_SO_FAR_WRITE_MS, (p: { step: number; text: string }) => storeAnswerSoFar(id, p, db));
}

/** Calls `write` with the newest value at most every `everyMs`, one write at a time; failures are dropped. */
function sampledWriter<T>(everyMs: number, write: (value: T) => Promise<void>): (value: T) => void {
  let last = 0;
  let pending: T | null = null;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    if (pending === null) return;
    const value = pending;
    pending = null;
    last = Date.now();
    void write(value).catch(() => undefined);
  };
  return (value) => {
    pending = value;
    if (timer) return;
    timer = setTimeout(flush, Math.max(0, last + everyMs - Date.now()));
    timer.unref?.();
  };
}
