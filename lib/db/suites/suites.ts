import 'server-only';
/**
 * Suite runs: an eval (one setting) or a matrix (one report per setting). A suite row is created
 * queued, its progress is the number of its stored cases (the UI polls it), and each
 * setting's aggregate metrics and per-case scores are stored in one transaction per setting.
 */
import type { SuiteRun, SuiteSetting } from '../generated/sqlite/client';
import { getDb, type Database } from '../core';
import { InvalidInputError, NotFoundError } from '../core';
import { newId } from '../core';
import { json } from '../runs';
import { DEFAULT_TENANT } from '../../governance';
import { casesMovedOverEpochs, type MovedTest } from '../../eval';
import type {
  CreateSuiteInput,
  MovedCase,
  SaveSuiteInput,
  SaveSuiteSettingInput,
  SuiteCaseDto,
  SuiteKind,
  SuiteRunDto,
  SuiteRunListItem,
  SuiteStatus,
} from '../runs';

/** The setting a matrix compares every other setting with. */
export const BASELINE_SETTING = 'none';

function toSettingDto(s: SuiteSetting) {
  return {
    setting: s.setting,
    metrics: json(s.metrics, 'suite metrics'),
    byCategory: json(s.byCategory, 'suite metrics by category'),
    reportedAt: s.reportedAt?.toISOString() ?? null,
  };
}

/**
 * Runs per case a suite was asked for: its job's epochs (a queued suite's, stored before any case), or
 * null for a suite with no job (the CLI's `--save`), whose epochs are read from its stored cases.
 */
function jobEpochs(jobSpec: string | null): number | null {
  if (jobSpec === null) return null;
  try {
    const epochs = (JSON.parse(jobSpec) as { epochs?: unknown }).epochs;
    return typeof epochs === 'number' && Number.isInteger(epochs) && epochs >= 1 ? epochs : 1;
  } catch {
    return 1;
  }
}

/** Each suite's runs per case (see jobEpochs); one grouped query for the suites without a job. */
async function epochsOf(rows: readonly Pick<SuiteRun, 'id' | 'jobSpec'>[], db: Database): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unknown: string[] = [];
  for (const r of rows) {
    const e = jobEpochs(r.jobSpec);
    if (e === null) unknown.push(r.id);
    else out.set(r.id, e);
  }
  if (unknown.length > 0) {
    const stored = await db.prisma.suiteCase.groupBy({ by: ['suiteRunId'], where: { suiteRunId: { in: unknown } }, _max: { epoch: true } });
    for (const g of stored) out.set(g.suiteRunId, (g._max.epoch ?? 0) + 1);
  }
  return out;
}

/**
 * A suite row as the pages show it. `completed` is the number of stored cases (issue 12: a counter
 * bumped beside the work could say 61 cases done while no run was stored).
 */
function toListItem(row: SuiteRun & { settings: { setting: string }[]; _count: { cases: number } }, epochs: number): SuiteRunListItem {
  return {
    id: row.id,
    epochs,
    kind: row.kind as SuiteKind,
    status: row.status as SuiteStatus,
    total: row.total,
    completed: row._count.cases,
    failed: row.failed,
    datasetName: row.datasetName,
    datasetHash: row.datasetHash,
    goldenSha256: row.goldenSha256,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    config: json(row.config, 'suite config'),
    settings: row.settings.map((s) => s.setting),
  };
}

/** Creates a queued suite run and returns its id. */
export async function createSuiteRun(input: CreateSuiteInput, db: Database = getDb()): Promise<string> {
  if (input.kind !== 'eval' && input.kind !== 'matrix') throw new InvalidInputError('kind', `suite kind must be eval or matrix`);
  if (!Number.isInteger(input.total) || input.total < 0) throw new InvalidInputError('total', 'total must be an integer >= 0');
  const id = input.id ?? newId();
  await db.prisma.suiteRun.create({
    data: {
      id,
      kind: input.kind,
      status: 'queued',
      total: input.total,
      config: JSON.stringify(input.config),
      datasetName: input.datasetName,
      datasetHash: input.datasetHash,
      goldenSha256: input.goldenSha256 ?? null,
      tenant: input.tenant ?? DEFAULT_TENANT,
      createdBy: input.createdBy ?? null,
      jobSpec: input.jobSpec === undefined ? null : JSON.stringify(input.jobSpec),
    },
  });
  return id;
}

/** Moves a queued suite to running (or sets its planned total). Progress itself is the stored cases. */
export async function updateSuiteProgress(id: string, progress: { total?: number; status?: 'running' }, db: Database = getDb()): Promise<void> {
  const { count } = await db.prisma.suiteRun.updateMany({
    where: { id },
    data: {
      ...(progress.status ? { status: progress.status } : {}),
      ...(progress.total !== undefined ? { total: progress.total } : {}),
    },
  });
  if (count === 0) throw new NotFoundError('suite run', id);
}

/** Stores (or replaces) one setting's metrics and case scores, in one transaction. */
export async function saveSuiteSetting(suiteRunId: string, input: SaveSuiteSettingInput, db: Database = getDb()): Promise<void> {
  const p = db.prisma;
  await p.$transaction([
    p.suiteCase.deleteMany({ where: { suiteRunId, setting: input.setting } }),
    p.suiteSetting.deleteMany({ where: { suiteRunId, setting: input.setting } }),
    p.suiteSetting.create({
      data: {
        suiteRunId,
        setting: input.setting,
        metrics: JSON.stringify(input.metrics),
        byCategory: JSON.stringify(input.byCategory),
        reportedAt: input.reportedAt ? new Date(input.reportedAt) : null,
      },
    }),
    p.suiteCase.createMany({
      data: input.cases.map((c) => ({
        suiteRunId,
        setting: input.setting,
        caseId: c.caseId,
        epoch: c.epoch ?? 0,
        category: c.category ?? null,
        runId: c.runId ?? null,
        scores: JSON.stringify(c.scores),
      })),
    }),
  ]);
}

/** Stores every setting of the report and marks the suite done. */
export async function completeSuiteRun(id: string, report: SaveSuiteInput, db: Database = getDb()): Promise<void> {
  for (const setting of report.settings) await saveSuiteSetting(id, setting, db);
  const { count } = await db.prisma.suiteRun.updateMany({
    where: { id },
    data: {
      status: 'done',
      finishedAt: new Date(),
      ...(report.goldenSha256 !== undefined ? { goldenSha256: report.goldenSha256 } : {}),
    },
  });
  if (count === 0) throw new NotFoundError('suite run', id);
}

/** Marks the suite failed with a message for the UI. */
export async function failSuiteRun(id: string, error: string, db: Database = getDb()): Promise<void> {
  const { count } = await db.prisma.suiteRun.updateMany({ where: { id }, data: { status: 'failed', error, finishedAt: new Date() } });
  if (count === 0) throw new NotFoundError('suite run', id);
}

/** A suite run with its per-setting metrics, or null. */
export async function getSuiteRun(id: string, db: Database = getDb()): Promise<SuiteRunDto | null> {
  const row = await db.prisma.suiteRun.findUnique({ where: { id }, include: { settings: { orderBy: { setting: 'asc' } }, _count: { select: { cases: true } } } });
  if (!row) return null;
  const epochs = (await epochsOf([row], db)).get(row.id) ?? 1;
  return { ...toListItem(row, epochs), config: json(row.config, 'suite config'), settings: row.settings.map(toSettingDto) };
}

export async function getSuiteRunOrThrow(id: string, db: Database = getDb()): Promise<SuiteRunDto> {
  const suite = await getSuiteRun(id, db);
  if (!suite) throw new NotFoundError('suite run', id);
  return suite;
}

/** Suite runs newest first, keyset-paginated by (createdAt, id). */
export async function listSuiteRuns(
  options: { kind?: SuiteKind; limit?: number; cursor?: string | null; tenant?: string } = {},
  db: Database = getDb(),
): Promise<{ items: SuiteRunListItem[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20), 1), 100);
  let after = {};
  if (options.cursor) {
    const [ms, id] = options.cursor.split('_');
    const date = new Date(Number(ms));
    if (!id || Number.isNaN(date.getTime())) throw new InvalidInputError('cursor', 'suite cursor is malformed');
    after = { OR: [{ createdAt: { lt: date } }, { createdAt: date, id: { lt: id } }] };
  }
  const rows = await db.prisma.suiteRun.findMany({
    where: { AND: [options.kind ? { kind: options.kind } : {}, options.tenant ? { tenant: options.tenant } : {}, after] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    include: { settings: { select: { setting: true }, orderBy: { setting: 'asc' } }, _count: { select: { cases: true } } },
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const epochs = await epochsOf(page, db);
  return { items: page.map((r) => toListItem(r, epochs.get(r.id) ?? 1)), nextCursor: rows.length > limit && last ? `${last.createdAt.getTime()}_${last.id}` : null };
}

/**
 * The per-case scores of a suite (optionally one setting), by case id. A suite run with epochs stores
 * one row per epoch: `allEpochs` returns every one (with its epoch; the lists of cases that moved
 * compare a case over all its epochs, lib/eval/case-epochs.ts); without it, each case's first epoch
 * (one run per case: the CLI's replay of a suite).
 */
export async function getSuiteCases(suiteRunId: string, setting?: string, db: Database = getDb(), options: { allEpochs?: boolean } = {}): Promise<SuiteCaseDto[]> {
  const rows = await db.prisma.suiteCase.findMany({
    where: { suiteRunId, ...(options.allEpochs ? {} : { epoch: 0 }), ...(setting ? { setting } : {}) },
    orderBy: [{ setting: 'asc' }, { caseId: 'asc' }, { epoch: 'asc' }],
  });
  return rows.map((r) => ({ setting: r.setting, caseId: r.caseId, epoch: r.epoch, category: r.category, runId: r.runId, scores: json(r.scores, 'case scores') }));
}

/**
 * The cases whose `metric` score under `setting` moved from the baseline setting's (`none`): what a
 * weakness flag moved, with both runs linked for side-by-side replay. With epochs a case is compared
 * over all its epochs (its mean score), and says in how many epochs its runs differed; the pair linked
 * is the first epoch that differs (lib/eval/case-epochs.ts). `moved` decides what counts as a move
 * (default: any difference).
 */
export async function getMatrixCasesThatMoved(
  suiteRunId: string,
  setting: string,
  metric: string,
  db: Database = getDb(),
  baseline: string = BASELINE_SETTING,
  moved?: MovedTest,
): Promise<MovedCase[]> {
  if (setting === baseline) return [];
  const rows = await db.prisma.suiteCase.findMany({
    where: { suiteRunId, setting: { in: [baseline, setting] } },
    orderBy: [{ caseId: 'asc' }, { epoch: 'asc' }],
  });
  const rowsOf = (s: string) => rows.filter((r) => r.setting === s).map((r) => ({ caseId: r.caseId, category: r.category, runId: r.runId, epoch: r.epoch, scores: json(r.scores, 'case scores') }));
  return casesMovedOverEpochs(rowsOf(baseline), rowsOf(setting), metric, moved);
}

/** Every queued or running suite, oldest first, with its stored job spec (null for suites from before jobs). */
export async function unfinishedSuites(db: Database = getDb()): Promise<{ id: string; jobSpec: string | null }[]> {
  return db.prisma.suiteRun.findMany({ where: { status: { in: ['queued', 'running'] } }, select: { id: true, jobSpec: true }, orderBy: { createdAt: 'asc' } });
}
