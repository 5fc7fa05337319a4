/**
 * The database a CLI command works on: DATABASE_URL, else the embedded SQLite file, brought up to
 * date first so a command on a fresh clone finds its tables instead of failing half-way. A DATABASE_URL
 * the app cannot use is refused (InvalidInputError naming the variable) before anything is opened.
 */
import { openDatabase } from '../lib/db/core/client';
import { resolveDatabaseUrl } from '../lib/db/core/database-url';
import { migrate } from '../scripts/db-migrate.mjs';

export async function openMigratedDatabase(): Promise<ReturnType<typeof openDatabase>> {
  resolveDatabaseUrl(process.env.DATABASE_URL);
  await migrate();
  return openDatabase();
}
