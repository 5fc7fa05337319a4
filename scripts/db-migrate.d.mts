/** Types for scripts/db-migrate.mjs. */
export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}
export function listMigrations(provider: 'sqlite' | 'postgres'): Migration[];
export function migrate(options?: { url?: string }): Promise<{ provider: 'sqlite' | 'postgres'; applied: string[] }>;
