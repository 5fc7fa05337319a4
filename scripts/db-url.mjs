/**
 * Which database `DATABASE_URL` names. Plain ESM so `npm start` needs no TypeScript loader;
 * lib/db/core/database-url.ts mirrors this for the app.
 */
import path from 'node:path';

/** The repository root (this file lives in scripts/). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Embedded default: a SQLite file under the git-ignored .data/ folder of the working directory
 * (`npm start` runs in the repository root; lib/db/core/database-url.ts resolves it the same way).
 */
export const DEFAULT_SQLITE_PATH = '.data/stockroom.db';

/**
 * Resolves a DATABASE_URL (unset or empty means the embedded SQLite file).
 * @param {string | undefined} raw
 * @returns {{ provider: 'sqlite', url: string, file: string } | { provider: 'postgres', url: string }}
 */
export function resolveDatabaseUrl(raw) {
  const value = (raw ?? '').trim();
  if (value === '') {
    const file = path.resolve(DEFAULT_SQLITE_PATH);
    return { provider: 'sqlite', url: `file:${file}`, file };
  }
  if (/^postgres(ql)?:\/\//i.test(value)) return { provider: 'postgres', url: value };
  if (value.startsWith('file:')) {
    // Relative paths are relative to the working directory, as Prisma's own file: URLs are.
    const file = path.resolve(value.slice('file:'.length));
    return { provider: 'sqlite', url: `file:${file}`, file };
  }
  throw new Error(`DATABASE_URL must start with file: or postgresql://, got '${value.replace(/\/\/[^@]*@/, '//***@')}'`);
}
