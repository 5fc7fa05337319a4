/**
 * The database a CLI command works on: DATABASE_URL, else the embedded SQLite file, brought up to
 * date first so a command on a fresh clone finds its tables instead of failing half-way.
 */
import { openDatabase } from '../lib/db/client';
import { migrate } from '../scripts/db-migrate.mjs';

export async function openMigratedDatabase(): Promise<ReturnType<typeof openDatabase>> {
  await migrate();
  return openDatabase();
}
