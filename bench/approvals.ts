/**
 * `npm run bench -- --only approvals`: decision → run finished for a governed restock (S024) on a
 * throwaway PostgreSQL cluster with two real worker processes (lib/jobs/testing/approval-drills.ts):
 * with nothing failing, with the worker that took the resume killed (-9) mid-dispatch (the other one
 * takes it over), and with PostgreSQL restarted 0.1 s after the decision. Each trial is also checked
 * (one effect, the model told the record, journal and evidence complete); problems are counted.
 * BENCH_APPROVALS_TRIALS sets the faulted trials (default 10), the happy path runs twice as many.
 */
import { armKill, decide, finished, keepWorkers, pausedRun, settled, setUpDrill, type Drill } from '../lib/jobs/testing/approval-drills';
import { loadavg } from 'node:os';
import { percentile, round, type Figure } from './stats';

/**
 * A trial not finished by then is stuck, not slow (the targets are 15 s; the 5-minute sweep is the
 * only thing that would move it): it counts at this figure, its problem says where the run is stuck
 * (describeRun), and the bench goes on with the next trial rather than waiting without end.
 */
const LIMIT_MS = 120_000;

interface Trial {
  ms: number;
  problems: string[];
  /** The machine's 1-minute load average when the trial ended (these figures move with it). */
  load: number;
}

async function trial(d: Drill, fault: (() => Promise<void>) | null, before?: () => Promise<void>): Promise<Trial> {
  const t = await timedTrial(d, fault, before);
  return { ...t, load: loadavg()[0] ?? 0 };
}

async function timedTrial(d: Drill, fault: (() => Promise<void>) | null, before?: () => Promise<void>): Promise<Omit<Trial, 'load'>> {
  await keepWorkers(d, 2);
  const { runId, approvalId } = await pausedRun(d);
  await before?.();
  const t0 = Date.now();
  await decide(approvalId, d.users.reviewer);
  await fault?.();
  try {
    const end = await finished(runId, LIMIT_MS);
    return { ms: end - t0, problems: await settled(runId, 1) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`bench approvals: a trial did not finish: ${message}\n`);
    return { ms: Date.now() - t0, problems: [`not finished after ${LIMIT_MS} ms: ${message.split('\n').slice(0, 4).join(' | ')}`] };
  }
}

function figures(label: string, samples: Trial[], target: string): Figure[] {
  const ms = samples.map((s) => s.ms);
  const problems = samples.flatMap((s) => s.problems);
  const loads = samples.map((s) => s.load);
  const load = `load ${round(Math.min(...loads), 1)}–${round(Math.max(...loads), 1)}`;
  return [
    { name: `decision → finished, ${label}, p50 (${ms.length} trials)`, value: round(percentile(ms, 50) / 1000, 3), unit: 's', detail: load },
    { name: `decision → finished, ${label}, p95 (${ms.length} trials)`, value: round(percentile(ms, 95) / 1000, 3), unit: 's', target, detail: load },
    { name: `problems after ${label} (lost, doubled, unfinished, evidence)`, value: problems.length, unit: '', target: '0', ...(problems.length ? { detail: problems.slice(0, 3).join('; ') } : {}) },
  ];
}

export async function benchApprovals(): Promise<Figure[]> {
  const trials = Number(process.env.BENCH_APPROVALS_TRIALS ?? 10);
  const d = await setUpDrill();
  try {
    await keepWorkers(d, 2);
    // Warm both workers' first resume (module loading) before anything is timed.
    await trial(d, null);
    await trial(d, null);
    const happy: Trial[] = [];
    for (let i = 0; i < trials * 2; i++) happy.push(await trial(d, null));
    const killed: Trial[] = [];
    for (let i = 0; i < trials; i++) killed.push(await trial(d, null, () => armKill('dispatched')));
    const restarted: Trial[] = [];
    for (let i = 0; i < Math.max(3, Math.ceil(trials / 2)); i++) {
      restarted.push(
        await trial(d, async () => {
          await new Promise((r) => setTimeout(r, 100));
          await d.cluster.restart();
        }),
      );
    }
    return [...figures('nothing failing', happy, '≤ 0.25 s'), ...figures('worker killed mid-dispatch', killed, '≤ 15 s'), ...figures('PostgreSQL restarted 0.1 s after', restarted, '≤ 15 s')];
  } finally {
    await d.close();
  }
}
