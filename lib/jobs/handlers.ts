/**
 * What each job kind does. One wrapper (`withJobPolicy`) holds the error policy, so no handler can
 * skip it: a payload is parsed again (a job row is data), a failure that can never succeed
 * (SuiteJobError, a configuration error) fails its suite at once, and any other failure is
 * retried with backoff until the last attempt, which fails the suite naming the error.
 */
import { ConfigError, HarnessError } from '../harness/errors';
import { endRunsUnfinished } from '../db/run-progress';
import { failSuiteRun } from '../db/suites';
import { caseKey, finishSuiteIfComplete, markSuiteStarted, pastCaseDurations, storedCaseKeys, suiteStatus } from '../db/suite-jobs';
import { loadGoldenSource } from '../runs/golden-source';
import { runQueuedRun } from '../runs/queued';
import { runSuiteCase, SuiteJobError } from '../runs/suite-case';
import type { ModelWrapper } from '../runs/agent';
import { JOB_PRIORITY_RANGE, JOB_SCHEMAS, type JobContext, type JobHandler, type JobHandlers, type JobKind, type JobPayload } from './types';

/** What the handlers need from the process they run in. */
export interface HandlerDeps {
  /** Wraps live model clients (per-provider limits shared by workers). */
  wrapModel?: ModelWrapper;
  /** Told after each stored case (tests and the bench watch workers through it). */
  onCaseStored?: (job: JobPayload<'suite-case'>) => void;
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
      console.error(`[job ${kind}] refused a malformed payload: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
      return; // retrying cannot fix it
    }
    try {
      await handler(parsed.data as JobPayload<K>, ctx);
    } catch (err) {
      const suiteRunId = suiteOf(kind, parsed.data);
      const last = permanent(err) || ctx.attempt >= ctx.maxAttempts;
      const message = err instanceof Error ? err.message : String(err);
      if (suiteRunId && last && !ctx.signal.aborted) {
        console.error(`[job ${kind}] suite ${suiteRunId} failed`, err);
        await failSuiteRun(suiteRunId, message.slice(0, 500)).catch(() => undefined);
        return;
      }
      if (kind === 'run' && last && !ctx.signal.aborted) {
        // A run given up on says so, rather than stay `running` with nobody working on it.
        const { runId } = parsed.data as JobPayload<'run'>;
        console.error(`[job run] run ${runId} failed`, err);
        await endRunsUnfinished({ id: runId, status: { in: ['queued', 'running', 'stopping'] } }, `The run failed on its worker: ${message.slice(0, 500)}`).catch(() => undefined);
        return;
      }
      throw err; // retried with backoff by the backend
    }
  };
}

export function createHandlers(deps: HandlerDeps = {}): JobHandlers {
  return {
    /** One run from the dashboard (PostgreSQL): claimed, run and stored by the run service. */
    async run(job) {
      await runQueuedRun(job);
    },
    /** Fans a suite out into one job per (setting, case) not yet stored, the longest before first (longestFirst); keys make a repeated fan-out add nothing. */
    async suite(job, ctx) {
      const status = await suiteStatus(job.suiteRunId);
      if (status !== 'queued' && status !== 'running') return;
      await markSuiteStarted(job.suiteRunId);
      const golden = await loadGoldenSource(job.goldenPath);
      const stored = await storedCaseKeys(job.suiteRunId);
      const { settings, ...rest } = job;
      const past = await pastCaseDurations({ suiteRunId: job.suiteRunId, settings, caseIds: golden.cases.map((c) => c.id) });
      const jobs = settings.flatMap((setting) =>
        golden.cases
          .filter((c) => !stored.has(caseKey(setting, c.id)))
          .map((c) => ({ payload: { ...rest, setting, caseId: c.id }, key: caseJobKey(job.suiteRunId, setting, c.id), priority: longestFirst(past.get(caseKey(setting, c.id))) })),
      );
      if (jobs.length > 0) await ctx.queue.enqueueMany('suite-case', jobs);
      else await finishSuiteIfComplete(job.suiteRunId);
    },
    async 'suite-case'(job, ctx) {
      const out = await runSuiteCase(job, { signal: ctx.signal, wrapModel: deps.wrapModel });
      if (out.stored) deps.onCaseStored?.(job);
      if (out.stored || out.reason === 'already-stored') await finishSuiteIfComplete(job.suiteRunId);
    },
    async 'governed-resume'(job) {
      // Loaded lazily: the governance service pulls in the policy file and the MCP executor.
      const { resumeGovernedJob } = await import('./governed-jobs');
      await resumeGovernedJob(job.runId);
    },
    async sweep(_job, ctx) {
      const { sweepAsJobs } = await import('./governed-jobs');
      await sweepAsJobs(ctx.queue);
    },
  };
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

/** The idempotency key of a suite's case job. */
export function caseJobKey(suiteRunId: string, setting: string, caseId: string): string {
  return `suite-case:${suiteRunId}:${setting}:${caseId}`;
}
