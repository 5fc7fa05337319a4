import 'server-only';
/**
 * Everything the matrix page and instructor mode show of a suite while it works and after, in one
 * read: the suite, its progress counted from stored cases, cost and running cases, and — while it is
 * still queued or running — each setting's metrics over the cases stored so far (the table fills in
 * as runs arrive) and how long the last finished suite like it took (an estimate before the first
 * case is stored, when the stored-rate estimate has nothing to go on).
 */
import { aggregate } from '../../eval';
import { CaseScoresSchema } from '../../eval';
import { getDb, type Database } from '../core';
import { json } from '../runs';
import { getSuiteProgress, type SuiteProgressDto } from './suite-jobs';
import { getSuiteLive, type SuiteLiveDto } from './suite-live';
import { getSuiteRunOrThrow } from './suites';
import type { SuiteRunDto, SuiteSettingDto } from '../runs';

/** A setting's metrics over the cases stored so far, and how many that is. */
export interface PartialSettingDto extends SuiteSettingDto {
  cases: number;
}

export interface SuitePollDto extends SuiteLiveDto {
  suite: SuiteRunDto;
  progress: SuiteProgressDto;
  /** While queued or running: each setting with a stored case, over its stored cases (empty otherwise). */
  partial: PartialSettingDto[];
  /** Wall time (created to finished, ms) of the newest finished suite of the same tenant, kind, dataset and model; null when none. */
  previousMs: number | null;
  /** Milliseconds since the suite was created, at this read (so the page renders the same text on the server and in the browser). */
  elapsedMs: number;
}

const ACTIVE = new Set(['queued', 'running']);

/** Per-setting metrics over the stored cases (what the finished suite will show, on fewer cases). */
export async function partialSettings(suiteRunId: string, db: Database = getDb()): Promise<PartialSettingDto[]> {
  const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId }, select: { setting: true, scores: true }, orderBy: [{ setting: 'asc' }, { caseId: 'asc' }] });
  const bySetting = new Map<string, unknown[]>();
  for (const r of rows) bySetting.set(r.setting, [...(bySetting.get(r.setting) ?? []), json(r.scores, 'case scores')]);
  return [...bySetting].map(([setting, raw]) => {
    const agg = aggregate(raw.map((s) => CaseScoresSchema.parse(s)));
    return { setting, metrics: agg.metrics as SuiteSettingDto['metrics'], byCategory: agg.byCategory as SuiteSettingDto['byCategory'], reportedAt: null, cases: raw.length };
  });
}

const modelOf = (config: unknown) => (config && typeof config === 'object' && 'model' in config ? String((config as { model: unknown }).model) : null);

/** How long the newest finished suite like this one took, created to finished (null when there is none). */
export async function previousSuiteMs(suite: Pick<SuiteRunDto, 'id' | 'kind' | 'datasetHash' | 'config' | 'createdAt'>, tenant: string, db: Database = getDb()): Promise<number | null> {
  const done = await db.prisma.suiteRun.findMany({
    where: { tenant, kind: suite.kind, datasetHash: suite.datasetHash, status: 'done', finishedAt: { not: null }, id: { not: suite.id }, createdAt: { lt: new Date(suite.createdAt) } },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true, finishedAt: true, config: true },
    take: 20,
  });
  const same = done.find((d) => modelOf(json(d.config, 'suite config')) === modelOf(suite.config));
  return same?.finishedAt ? same.finishedAt.getTime() - same.createdAt.getTime() : null;
}

/** The suite as the pages poll it (the caller has checked the tenant). */
export async function getSuitePoll(id: string, tenant: string, db: Database = getDb(), options: { partial?: boolean } = {}): Promise<SuitePollDto> {
  const suite = await getSuiteRunOrThrow(id, db);
  const active = ACTIVE.has(suite.status);
  // Aggregating every stored case on each poll is the poll's costliest part; a page showing progress only skips it.
  const withPartial = options.partial !== false;
  const [progress, live, partial, previousMs] = await Promise.all([
    getSuiteProgress(id, db),
    getSuiteLive(id, db),
    active && withPartial ? partialSettings(id, db) : Promise.resolve([]),
    active ? previousSuiteMs(suite, tenant, db) : Promise.resolve(null),
  ]);
  return { suite, progress, ...live, partial, previousMs, elapsedMs: Math.max(0, Date.now() - Date.parse(suite.createdAt)) };
}
