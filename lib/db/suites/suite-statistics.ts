import 'server-only';
/**
 * A stored suite's statistics for the pages (issue 35): its case rows — every epoch — read as run
 * points and handed to lib/eval's suiteStatistics. A matrix pairs each setting with `none`; instructor
 * mode pairs a suite with the baseline suite it ran beside (`against`). A finished suite's figures
 * never change, so they are kept (a bootstrap over a 1,525-run matrix is the costly part).
 */
import { AGAINST_BASE, AGAINST_CURRENT, CaseScoresSchema, isDeterministicModel, suiteStatistics, type RunPoint, type SuiteStatistics } from '../../eval';
import { getDb, type Database } from '../core';
import { NotFoundError } from '../core';
import { json } from '../runs';

/** Finished suites' statistics kept in this process (the newest few). */
const KEPT = 32;
const kept = new Map<string, SuiteStatistics>();


interface SuiteRows {
  status: string;
  deterministic: boolean;
  bySetting: Record<string, RunPoint[]>;
}

async function readSuite(id: string, db: Database): Promise<SuiteRows> {
  const suite = await db.prisma.suiteRun.findUnique({ where: { id }, select: { status: true, config: true } });
  if (!suite) throw new NotFoundError('suite run', id);
  const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId: id }, select: { setting: true, caseId: true, category: true, scores: true }, orderBy: [{ setting: 'asc' }, { caseId: 'asc' }, { epoch: 'asc' }] });
  const bySetting: Record<string, RunPoint[]> = {};
  for (const r of rows) {
    // The model time is not stored per case; the pages show no latency interval.
    (bySetting[r.setting] ??= []).push({ caseId: r.caseId, category: r.category ?? 'uncategorised', scores: CaseScoresSchema.parse(json(r.scores, 'case scores')), modelLatencyMs: 0 });
  }
  const config = json(suite.config, 'suite config');
  return { status: suite.status, deterministic: isDeterministicModel(config && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : {}), bySetting };
}

function keep(key: string, stats: SuiteStatistics): void {
  kept.set(key, stats);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
}

/**
 * The statistics of suite `id` (the caller has checked its tenant, and `against`'s): a matrix's
 * settings against `none`; with `against`, the suite's runs (label `current`) against that suite's
 * (`baseline`), both of one setting. `metrics`: the metrics shown, the Holm family with the settings.
 */
export async function getSuiteStatistics(id: string, options: { against?: string | null; metrics: readonly string[] }, db: Database = getDb()): Promise<SuiteStatistics> {
  const key = `${id}\u0000${options.against ?? ''}\u0000${options.metrics.join(',')}`;
  const hit = kept.get(key);
  if (hit) return hit;
  const suite = await readSuite(id, db);
  let stats: SuiteStatistics;
  let finished = suite.status === 'done';
  if (options.against) {
    const base = await readSuite(options.against, db);
    finished &&= base.status === 'done';
    stats = suiteStatistics(
      { [AGAINST_BASE]: Object.values(base.bySetting).flat(), [AGAINST_CURRENT]: Object.values(suite.bySetting).flat() },
      { base: AGAINST_BASE, deterministic: suite.deterministic && base.deterministic, metrics: options.metrics },
    );
  } else {
    stats = suiteStatistics(suite.bySetting, { base: 'none', deterministic: suite.deterministic, metrics: options.metrics });
  }
  if (finished) keep(key, stats);
  return stats;
}
