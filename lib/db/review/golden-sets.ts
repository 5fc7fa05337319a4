import 'server-only';
/**
 * Golden sets stored per tenant and versioned: adding a case or importing a file stores a new
 * version (the whole set as golden JSONL), so a suite or report that names a version
 * (`golden-set://tenant/name@version`) always finds the same cases.
 */
import { GoldenCaseRecordSchema, parseGoldenText, type GoldenCaseRecord, type GoldenFile } from '../../eval';
import { GoldenFileError } from '../../eval';
import { goldenFileOfText, goldenLine, goldenSetRef, goldenTextSha256, GoldenSetNameSchema, type RunForDraft } from '../../eval';
import { safeJsonParse, type JsonValue } from '../../harness';
import { getDb, type Database } from '../core';
import { InvalidInputError, NotFoundError } from '../core';

export interface GoldenSetSummary {
  name: string;
  version: number;
  caseCount: number;
  sha256: string;
  createdBy: string | null;
  createdAt: string;
}

function checkedName(name: string): string {
  const parsed = GoldenSetNameSchema.safeParse(name);
  if (!parsed.success) throw new InvalidInputError('name', `name: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** The newest version of each of the tenant's sets, by name. */
export async function listGoldenSets(tenant: string, db: Database = getDb()): Promise<GoldenSetSummary[]> {
  const rows = await db.prisma.goldenSet.findMany({ where: { tenant }, orderBy: [{ name: 'asc' }, { version: 'desc' }], select: { name: true, version: true, caseCount: true, sha256: true, createdBy: true, createdAt: true } });
  const newest = new Map<string, GoldenSetSummary>();
  for (const r of rows) if (!newest.has(r.name)) newest.set(r.name, { ...r, createdAt: r.createdAt.toISOString() });
  return [...newest.values()];
}

/** A set's version (the newest when `version` is null) as text; NotFoundError when the tenant has none. */
export async function getGoldenSetTextOrThrow(tenant: string, name: string, version: number | null, db: Database = getDb()): Promise<{ name: string; version: number; jsonl: string }> {
  const row = await db.prisma.goldenSet.findFirst({ where: { tenant, name, ...(version !== null ? { version } : {}) }, orderBy: { version: 'desc' } });
  if (!row) throw new NotFoundError('golden set', version !== null ? `${name}@${version}` : name);
  return { name: row.name, version: row.version, jsonl: row.jsonl };
}

/** A set's version as a GoldenFile whose path is its golden-set address (what eval, matrix and suites record). */
export async function getGoldenSetOrThrow(tenant: string, name: string, version: number | null, db: Database = getDb()): Promise<GoldenFile> {
  const set = await getGoldenSetTextOrThrow(tenant, name, version, db);
  return goldenFileOfText(goldenSetRef(tenant, set.name, set.version), set.jsonl);
}

async function storeVersion(tenant: string, name: string, jsonl: string, by: string | null, db: Database): Promise<GoldenSetSummary> {
  const cases = parseGoldenText(jsonl, `${name} (new version)`);
  const last = await db.prisma.goldenSet.findFirst({ where: { tenant, name }, orderBy: { version: 'desc' }, select: { version: true } });
  const row = await db.prisma.goldenSet.create({
    data: { tenant, name, version: (last?.version ?? 0) + 1, jsonl, caseCount: cases.length, sha256: goldenTextSha256(jsonl), createdBy: by },
  });
  return { name: row.name, version: row.version, caseCount: row.caseCount, sha256: row.sha256, createdBy: row.createdBy, createdAt: row.createdAt.toISOString() };
}

/**
 * Adds a case to the tenant's set `name` (creating the set when it does not exist) as a new version.
 * A case id already in the set, or a field the golden format refuses, is an InvalidInputError naming it.
 */
export async function addGoldenCase(tenant: string, name: string, record: GoldenCaseRecord, by: string | null, db: Database = getDb()): Promise<GoldenSetSummary> {
  const setName = checkedName(name);
  const parsed = GoldenCaseRecordSchema.safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'case';
    throw new InvalidInputError(field, `${field}: ${issue?.message ?? 'invalid'}`);
  }
  const current = await db.prisma.goldenSet.findFirst({ where: { tenant, name: setName }, orderBy: { version: 'desc' }, select: { jsonl: true } });
  const existing = current ? parseGoldenText(current.jsonl, setName) : [];
  if (existing.some((c) => c.id === parsed.data.id)) throw new InvalidInputError('id', `id: the set ${setName} already has a case ${parsed.data.id}`);
  const text = current ? `${current.jsonl.replace(/\n*$/, '')}\n${goldenLine(parsed.data)}\n` : `${goldenLine(parsed.data)}\n`;
  return storeVersion(tenant, setName, text, by, db);
}

/** Stores golden JSONL text as the next version of `name`; every bad line is refused at once (GoldenFileError → field `jsonl`). */
export async function importGoldenSet(tenant: string, name: string, jsonl: string, by: string | null, db: Database = getDb()): Promise<GoldenSetSummary> {
  const setName = checkedName(name);
  try {
    parseGoldenText(jsonl, 'file');
  } catch (err) {
    if (err instanceof GoldenFileError) throw new InvalidInputError('jsonl', err.issues.slice(0, 5).map((i) => `line ${i.line}${i.field ? ` field ${i.field}` : ''}: ${i.message}`).join('; '));
    throw err;
  }
  return storeVersion(tenant, setName, jsonl.endsWith('\n') ? jsonl : `${jsonl}\n`, by, db);
}

/** Most expected tool calls a drafted case takes from its run (AddGoldenCaseInputSchema allows 50). */
export const MAX_DRAFT_CALLS = 50;

/** What a draft is made from, for a run of `tenant` (another tenant's run is not found). */
export async function runForDraftOrThrow(tenant: string, runId: string, db: Database = getDb()): Promise<RunForDraft> {
  const run = await db.prisma.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      tenant: true,
      caseId: true,
      category: true,
      query: true,
      finalAnswer: true,
      terminationReason: true,
      // A draft expects the calls that ran without error, at most as many as a case takes (a long run has thousands).
      toolCalls: { where: { executed: true, isError: false }, select: { name: true, arguments: true, isError: true, executed: true }, orderBy: { idx: 'asc' }, take: MAX_DRAFT_CALLS },
    },
  });
  if (!run || run.tenant !== tenant) throw new NotFoundError('run', runId);
  return {
    id: run.id,
    caseId: run.caseId,
    category: run.category,
    query: run.query,
    finalAnswer: run.finalAnswer,
    terminationReason: run.terminationReason,
    toolCalls: run.toolCalls.map((c) => {
      const args = safeJsonParse(c.arguments);
      return { name: c.name, arguments: (args.ok ? args.value : {}) as JsonValue, isError: c.isError, executed: c.executed };
    }),
  };
}
