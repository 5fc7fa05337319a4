import 'server-only';
/**
 * Finding runs by what people have in hand: the 8-character short id every page shows, and "the
 * same case under another setting" for compare.
 */
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';

/** The shortest id suffix accepted (the pages show the last 8 characters). */
export const MIN_ID_SUFFIX = 6;

/**
 * The full id of a run of `tenant` given its full id or the end of it. Null when nothing matches
 * (another tenant's run is nothing); an InvalidInputError naming `field` when the suffix is too
 * short or matches more than one run.
 */
export async function resolveRunId(idOrSuffix: string, field: string, tenant: string, db: Database = getDb()): Promise<string | null> {
  const exact = await db.prisma.run.findFirst({ where: { id: idOrSuffix, tenant }, select: { id: true } });
  if (exact) return exact.id;
  if (idOrSuffix.length < MIN_ID_SUFFIX) throw new InvalidInputError(field, `give at least the last ${MIN_ID_SUFFIX} characters of the run id`);
  const rows = await db.prisma.run.findMany({ where: { id: { endsWith: idOrSuffix }, tenant }, select: { id: true }, take: 2 });
  if (rows.length > 1) throw new InvalidInputError(field, `${idOrSuffix} ends more than one run id: paste more of it`);
  return rows[0]?.id ?? null;
}

/**
 * The newest run of `tenant` of the same golden case, dataset and transport as `runId`, under
 * `setting` (`none` or sorted flags joined with `+`), other than `runId` itself. Null for a free
 * query or when no such run is stored.
 */
export async function findSameCaseRun(runId: string, setting: string, tenant: string, db: Database = getDb()): Promise<string | null> {
  const run = await db.prisma.run.findFirst({ where: { id: runId, tenant }, select: { caseId: true, datasetName: true, transport: true } });
  if (!run?.caseId) return null;
  const other = await db.prisma.run.findFirst({
    where: { tenant, caseId: run.caseId, datasetName: run.datasetName, transport: run.transport, setting, status: 'finished', id: { not: runId } },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return other?.id ?? null;
}
