import 'server-only';
/**
 * Text search over runs through their search index (RunSearch; see run-search.ts for the layout).
 *
 * SQLite: the FTS5 trigram table RunSearchFts, queried with the text as one quoted phrase.
 * PostgreSQL: ILIKE on RunSearch.body, served by its pg_trgm GIN index.
 * Both find any case-insensitive substring of 3+ characters through the index. The matching run ids
 * (in the caller's tenant) become an `id IN (…)` filter, which the sort index then pages; a text
 * matching more than MAX_INDEXED_MATCHES runs (or shorter than a trigram) is matched row by row
 * instead, which walks the sort index and stops at a page: cheap exactly when the text is common.
 */
import type { Prisma as P } from './generated/sqlite/client';
import type { Database } from './client';
import { InvalidInputError } from './errors';
import { findMatch, ftsPhrase, likePattern, normaliseSearchText, type RunTextMatch } from './run-search';

/** Above this many index hits, an `IN` list costs more than testing rows in sort order. */
export const MAX_INDEXED_MATCHES = 5_000;
/** Shortest text the trigram indexes can look up. */
const MIN_INDEXED_CHARS = 3;

/** Up to MAX_INDEXED_MATCHES + 1 ids of runs containing `text`, through the index or (SQLite `scan`) by LIKE. */
async function matchingRunIds(db: Database, text: string, tenant: string | undefined, scan = false): Promise<string[]> {
  const limit = MAX_INDEXED_MATCHES + 1;
  const p = db.prisma;
  if (db.provider === 'sqlite' && scan) {
    const pattern = likePattern(text);
    const rows = await p.$queryRaw<Array<{ runId: string }>>`SELECT s."runId" FROM "RunSearch" s JOIN "Run" r ON r."id" = s."runId"
      WHERE s."body" LIKE ${pattern} ESCAPE '!' AND (${tenant ?? null} IS NULL OR r."tenant" = ${tenant ?? null}) LIMIT ${limit}`;
    return rows.map((r) => r.runId);
  }
  if (db.provider === 'sqlite') {
    const phrase = ftsPhrase(text);
    const rows =
      tenant === undefined
        ? await p.$queryRaw<Array<{ runId: string }>>`SELECT s."runId" FROM "RunSearchFts" f JOIN "RunSearch" s ON s."seq" = f."rowid"
            WHERE "RunSearchFts" MATCH ${phrase} LIMIT ${limit}`
        : await p.$queryRaw<Array<{ runId: string }>>`SELECT s."runId" FROM "RunSearchFts" f JOIN "RunSearch" s ON s."seq" = f."rowid"
            JOIN "Run" r ON r."id" = s."runId" WHERE "RunSearchFts" MATCH ${phrase} AND r."tenant" = ${tenant} LIMIT ${limit}`;
    return rows.map((r) => r.runId);
  }
  const pattern = likePattern(text);
  const rows =
    tenant === undefined
      ? await p.$queryRaw<Array<{ runId: string }>>`SELECT s."runId" FROM "RunSearch" s WHERE s."body" ILIKE ${pattern} ESCAPE '!' LIMIT ${limit}`
      : await p.$queryRaw<Array<{ runId: string }>>`SELECT s."runId" FROM "RunSearch" s JOIN "Run" r ON r."id" = s."runId"
          WHERE s."body" ILIKE ${pattern} ESCAPE '!' AND r."tenant" = ${tenant} LIMIT ${limit}`;
  return rows.map((r) => r.runId);
}

/**
 * The `where` of a text filter (null when there is none). `tenant` narrows the index lookup to the
 * caller's runs; the caller's where still carries its own tenant condition.
 */
export async function textWhere(db: Database, raw: string | undefined, tenant: string | undefined): Promise<P.RunWhereInput | null> {
  const text = normaliseSearchText(raw);
  if (!text) return null;
  const indexed = [...text].length >= MIN_INDEXED_CHARS;
  if (indexed) {
    const ids = await matchingRunIds(db, text, tenant);
    if (ids.length <= MAX_INDEXED_MATCHES) return { id: { in: ids } };
  }
  if (/[\\%_]/.test(text)) {
    // Prisma's `contains` passes %, _ and \ to LIKE as wildcards, so such text is matched here, literally.
    const ids = indexed ? [] : await matchingRunIds(db, text, tenant, true);
    if (indexed || ids.length > MAX_INDEXED_MATCHES)
      throw new InvalidInputError('text', `'${text}' matches too many runs to search for literally; add characters to narrow it`);
    return { id: { in: ids } };
  }
  // Common or very short text: test each candidate row's body. SQLite's LIKE folds ASCII case;
  // PostgreSQL needs ILIKE, which Prisma's SQLite-typed API does not know, hence the cast.
  const contains = db.provider === 'postgres' ? ({ contains: text, mode: 'insensitive' } as P.StringFilter) : { contains: text };
  return { search: { is: { body: contains } } };
}

/** Where `text` matched in each of these runs (for the runs table's snippets). */
export async function textMatches(db: Database, runIds: string[], raw: string | undefined): Promise<Map<string, RunTextMatch>> {
  const text = normaliseSearchText(raw);
  const out = new Map<string, RunTextMatch>();
  if (!text || runIds.length === 0) return out;
  const rows = await db.prisma.runSearch.findMany({ where: { runId: { in: runIds } }, select: { runId: true, body: true } });
  for (const row of rows) {
    const match = findMatch(row.body, text);
    if (match) out.set(row.runId, match);
  }
  return out;
}
