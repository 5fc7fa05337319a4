/**
 * A suite case whose store fails on a constraint other than a unique key (a foreign key, NOT NULL, a
 * CHECK) was reported as "already stored" on SQLite's direct path, since every such error carries
 * SQLITE_CONSTRAINT: a failed store looked like a duplicate and was dropped silently. Only a unique
 * key means "already stored". The errors here are the real ones better-sqlite3 throws.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './suite-jobs';

interface RawDb {
  exec(sql: string): void;
  pragma(s: string): void;
  close(): void;
}
const BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => RawDb;

function errorOf(db: RawDb, sql: string): unknown {
  try {
    db.exec(sql);
  } catch (err) {
    return err;
  }
  throw new Error(`expected ${sql} to fail`);
}

describe('isUniqueViolation on SQLite errors', () => {
  const db = new BetterSqlite(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY);
    CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT NOT NULL REFERENCES parent(id), n INTEGER CHECK (n >= 0), k TEXT UNIQUE);
    INSERT INTO parent VALUES ('p');
    INSERT INTO child VALUES ('c', 'p', 1, 'k');`);

  it('a unique key or primary key stored already is one', () => {
    expect(isUniqueViolation(errorOf(db, `INSERT INTO child VALUES ('c', 'p', 1, 'other')`))).toBe(true);
    expect(isUniqueViolation(errorOf(db, `INSERT INTO child VALUES ('d', 'p', 1, 'k')`))).toBe(true);
  });

  it('a foreign key, NOT NULL or CHECK failure is not', () => {
    const fk = errorOf(db, `INSERT INTO child VALUES ('e', 'nobody', 1, 'e')`);
    expect(String((fk as { code?: string }).code)).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(isUniqueViolation(fk)).toBe(false);
    expect(isUniqueViolation(errorOf(db, `INSERT INTO child VALUES ('f', NULL, 1, 'f')`))).toBe(false);
    expect(isUniqueViolation(errorOf(db, `INSERT INTO child VALUES ('g', 'p', -1, 'g')`))).toBe(false);
  });
});
