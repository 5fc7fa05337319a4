import 'server-only';
/**
 * Multi-row INSERT statements through Prisma's raw tagged template (portable between SQLite and
 * PostgreSQL: quoted identifiers, bound values). Prisma's createMany costs ~100–400 µs per row in
 * the JS query compiler; one bound multi-row INSERT costs ~20 µs per row, which is what lets a
 * 250-run matrix be stored in well under a second.
 */
import { Prisma as Sql } from './generated/sqlite/client';
import type { Database } from './client';

/** Bound values per statement: under SQLite's 32,766 and PostgreSQL's 65,535 limits. */
const MAX_PARAMS = 10_000;

/**
 * Statements inserting `rows` (all with the same keys, which name the columns) into `table`.
 * `ignoreConflictOn` turns a duplicate key on that column into a no-op (content-addressed rows).
 */
export function insertRows(
  db: Database,
  table: string,
  rows: ReadonlyArray<object>,
  ignoreConflictOn?: string,
): ReturnType<Database['prisma']['$executeRaw']>[] {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const head = Sql.raw(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES `);
  const tail = Sql.raw(ignoreConflictOn ? ` ON CONFLICT ("${ignoreConflictOn}") DO NOTHING` : '');
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const statements = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const values = rows
      .slice(i, i + perStatement)
      .map((row) => Sql.sql`(${Sql.join(columns.map((c) => (row as Record<string, unknown>)[c] ?? null))})`);
    statements.push(db.prisma.$executeRaw`${head}${Sql.join(values)}${tail}`);
  }
  return statements;
}
