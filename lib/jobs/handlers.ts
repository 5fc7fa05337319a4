/**
 * What each job kind does. One wrapper (`withJobPolicy`) holds the error policy, so no handler can
 * skip it: a payload is parsed again (a job row is data), a failure that can never succeed
 * (a malformed payload, SuiteJobError, a configuration error) fails its suite or run at once and
 * is thrown as a PermanentJobError (the queue records the job failed with its error, not retried),
 * and any other failure is retried with backoff until the last attempt, which fails the suite or
 * run naming the error and is recorded failed the same way. No job that failed vanishes.
 */
import { ConfigError, HarnessError, isOfflineModel, type HarnessConfig } from '../harness';
import { getDb } from '../db/core';
import { endRunsUnfinished } from '../db/runs';
import { JobLeaseLostError } from '../db/core';
import { isConnectionLost } from './connection-lost';
import { failSuiteRun } from '../db/suites';
import { caseEpochKey, caseKey, finishSuiteIfComplete, markSuiteStarted, pastCaseDurations, storedCaseKeys, suiteConfig, suiteStatus } from '../db/suites';
import { loadGoldenSource } from '../runs/golden-source';
import { runQueuedRun } from '../runs/queued';
import { configOfSetting, runSuiteCase, SuiteJobError } from '../runs/suite-case';
import { nudgeSuiteStatus } from '../runs/suite-status-hub';
import type { ModelGate } from '../runs/agent';
import { backfillJobKey, JOB_PRIORITY_RANGE, JOB_SCHEMAS, PermanentJobError, type JobContext, type JobHandler, type JobHandlers, type JobKind, type JobPayload } from './types';
import { settleQuietTraces } from '../db/traces';
import { idleBackfillIds } from '../db/review';
import { traceQuietMs } from '../otel';
import { deliverOnce } from '../notify';
import { loadEvidenceKey } from '../governance';
import { deliveryQueueOf } from './delivery-queue';
import { pokeWatchOn } from './watch-poke';

/** What the handlers need from the process they run in. */
export interface HandlerDeps {
  /** The gate live model attempts pass (per-provider limits shared by workers). */
  modelGate?: ModelGate;
  /** Told after each stored case (tests and the bench watch workers through it). */
  onCaseStored?: (job: JobPayload<'suite-case'>) => void;
  /** Told when a case job starts (tests see which jobs a worker took, in order with what it printed). */
  onCaseStarted?: (job: JobPayload<'suite-case'>) => void;
  /** Told when a case's store was refused because its job was released to another worker (fencing). */
  onCaseLeaseLost?: (job: JobPayload<'suite-case'>) => void;
}

function suiteOf(kind: JobKind, payload: unknown): string | null {
  return (kind === 'suite' || kind === 'suite-case') && payload && typeof payload === 'object' && 'suiteRunId' in payload ? String(payload.suiteRunId) : null;
}

const permanent = (err: unknown) => err instanceof SuiteJobError || err instanceof ConfigError || err instanceof HarnessError;

/** The single error policy every job runs under. */
export function withJobPolicy<K extends JobKind>(kind: K, handler: JobHandler<K>): (raw: unknown, ctx: JobContext) => Promise<void> {
  return async (raw, ctx) => {
    const parsed = JOB_SCHEMAS[kind].safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // Retrying cannot fix it.
      throw new PermanentJobError(`malformed ${kind} payload: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`);
    }
    try {
      await handler(parsed.data as JobPayload<K>, ctx);
    } catch (err) {
      if (ctx.signal.aborted) throw err; // the worker is stopping: the job is handed back or retried
      if (err instanceof JobLeaseLostError) throw err; // another worker holds the job now: its outcome is that worker's
      if (isConnectionLost(err)) throw err; // not the job's fault: handed back without spending an attempt (graphile.ts)
      const isPermanent = permanent(err);
      const last = isPermanent || ctx.attempt >= ctx.maxAttempts;
      if (!last) throw err; // retried with backoff by the backend
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const suiteRunId = suiteOf(kind, parsed.data);
      if (suiteRunId) {
        console.error(`[job ${kind}] suite ${suiteRunId} failed`, err);
        await failSuiteRun(suiteRunId, message).catch(() => undefined);
      } else if (kind === 'run') {
        // A run given up on says so, rather than stay `running` with nobody working on it.
        const { runId } = parsed.data as JobPayload<'run'>;
        console.error(`[job run] run ${runId} failed`, err);
        await endRunsUnfinished({ id: runId, status: { in: ['queued', 'running', 'stopping'] } }, `The run failed on its worker: ${message}`).catch(() => undefined);
      }
      throw isPermanent ? new PermanentJobError(message, { cause: err }) : err;
    }
  };
}

export function createHandlers(deps: HandlerDeps = {}): JobHandlers {
  return {
    /** One run from the dashboard (PostgreSQL): claimed, run and stored by the run service. */
    async run(job, ctx) {
      if ((await runQueuedRun(job, getDb(), ctx.lease)) !== 'ran') return;
      // Its evaluators score it now rather than at the next sweep; the run is stored, so a failed poke is only logged.
      await pokeWatchOn(ctx.queue);
    },
    /** Fans a suite out into one job per (setting, case, epoch) not yet stored, the longest before first (longestFirst); keys make a repeated fan-out add nothing. */
    async suite(job, ctx) {
      const status = await suiteStatus(job.suiteRunId);
      if (status !== 'queued' && status !== 'running') return;
      await markSuiteStarted(job.suiteRunId);
      const golden = await loadGoldenSource(job.goldenPath);
      const stored = await storedCaseKeys(job.suiteRunId);
      const { settings, epochs = 1, ...rest } = job;
      const past = await pastCaseDurations({ suiteRunId: job.suiteRunId, settings, caseIds: golden.cases.map((c) => c.id) });
      // An offline model on the local tools: its cases only use this process (the in-process queue runs them together).
      const config = rest.toolServer === undefined ? await suiteConfig(job.suiteRunId) : null;
      const cpuOnly = config !== null && cpuOnlyConfig(configOfSetting(config, 'none'));
      const epochList = Array.from({ length: epochs }, (_, e) => e);
      const jobs = settings.flatMap((setting) =>
        golden.cases.flatMap((c) =>
          epochList
            .filter((epoch) => !stored.has(caseEpochKey(setting, c.id, epoch)))
            .map((epoch) => ({
              payload: { ...rest, setting, caseId: c.id, ...(epoch > 0 ? { epoch } : {}) },
              key: caseJobKey(job.suiteRunId, setting, c.id, epoch),
              priority: longestFirst(past.get(caseKey(setting, c.id))),
              ...(cpuOnly ? { cpuOnly } : {}),
            })),
        ),
      );
      if (jobs.length > 0) await ctx.queue.enqueueMany('suite-case', jobs);
      else if (await finishSuiteIfComplete(job.suiteRunId)) nudgeSuiteStatus(job.suiteRunId);
    },
    async 'suite-case'(job, ctx) {
      deps.onCaseStarted?.(job);
      const out = await runSuiteCase(job, { signal: ctx.signal, modelGate: deps.modelGate, ...(ctx.lease ? { lease: ctx.lease } : {}) }).catch((err: unknown) => {
        if (err instanceof JobLeaseLostError) deps.onCaseLeaseLost?.(job);
        throw err;
      });
      if (out.stored) deps.onCaseStored?.(job);
      if (!out.stored && out.reason !== 'already-stored') return;
      // The pages following the suite in this process are told at once, not at their next read.
      if (await finishSuiteIfComplete(job.suiteRunId, getDb(), ctx.lease)) nudgeSuiteStatus(job.suiteRunId);
      // Not finished: the count read the job as still held (a lost one threw), so its completion need not ask again.
      else ctx.leaseConfirmed?.();
    },
    async 'governed-resume'(job, ctx) {
      // Loaded lazily: the governance service pulls in the policy file and the MCP executor.
      const { resumeGovernedJob } = await import('./governed-jobs');
      // Held through this job's lease: while this worker holds the job, no other resume takes the run.
      await resumeGovernedJob(job.runId, ctx.lease, deliveryQueueOf(ctx.queue));
    },
    /** One attempt at a webhook delivery; a failure before the last attempt is retried with the engine's backoff. */
    async webhook(job, ctx) {
      const outcome = await deliverOnce(getDb().prisma, job.deliveryId, { attempt: ctx.attempt, maxAttempts: ctx.maxAttempts, rootKey: loadEvidenceKey(), signal: ctx.signal });
      if (outcome === 'retry') throw new Error(`webhook delivery ${job.deliveryId}: attempt ${ctx.attempt} of ${ctx.maxAttempts} failed (see the delivery log)`);
    },
    /** Runs waiting for their evaluators and the rollup (the outbox): scored and counted, each once. */
    async watch(_job, ctx) {
      const { evaluateAlerts, watchRuns } = await import('../watch');
      await watchRuns({ signal: ctx.signal });
      // The rules read the rollup the drain just brought up to date.
      await evaluateAlerts(deliveryQueueOf(ctx.queue));
      // Backfills no step holds (a step lost with a restart, the in-process queue's jobs with the server) go on.
      const idle = await idleBackfillIds();
      if (idle.length > 0) await ctx.queue.enqueueMany('backfill', idle.map((backfillId) => ({ payload: { backfillId }, key: backfillJobKey(backfillId) })));
    },
    /** One step of an evaluator backfill; while runs are left, the next step is a job of its own. */
    async backfill(job, ctx) {
      const { backfillStep } = await import('../watch');
      const step = job.step ?? 0;
      if ((await backfillStep(job.backfillId, { signal: ctx.signal })) === 'more') {
        await ctx.queue.enqueue('backfill', { backfillId: job.backfillId, step: step + 1 }, { key: backfillJobKey(job.backfillId, step + 1) });
      }
    },
    async sweep(_job, ctx) {
      const { sweepAsJobs } = await import('./governed-jobs');
      await sweepAsJobs(ctx.queue);
      const { notifyDueApprovals } = await import('../runs/notifications');
      await notifyDueApprovals(deliveryQueueOf(ctx.queue));
      const { pruneProviderCalls } = await import('./provider-limits');
      await pruneProviderCalls(getDb());
      // Imported traces whose root never came and that went quiet: their runs stop showing running.
      await settleQuietTraces(traceQuietMs());
    },
  };
}

/** Whether a suite's cases use nothing but this process: an offline model on the in-process tools. */
export function cpuOnlyConfig(config: HarnessConfig): boolean {
  return isOfflineModel(config.model) && config.transport === 'local';
}

/**
 * A case job's priority from how long the case took before: the longest first, and a case never run
 * before ahead of them all (it may be the longest). A suite whose long cases start last ends on
 * them while the other slots stand idle; started first, they overlap the short ones.
 */
export function longestFirst(pastMs: number | undefined): number {
  if (pastMs === undefined) return JOB_PRIORITY_RANGE.min;
  return -Math.min(JOB_PRIORITY_RANGE.max, Math.max(0, Math.round(pastMs / 10)));
}

/** The idempotency key of a suite's case job (epoch 0 keeps the key it had before epochs). */
export function caseJobKey(suiteRunId: string, setting: string, caseId: string, epoch = 0): string {
  return `suite-case:${suiteRunId}:${setting}:${caseId}${epoch > 0 ? `:${epoch}` : ''}`;
}
