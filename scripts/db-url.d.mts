/** Types for scripts/db-url.mjs. */
export const REPO_ROOT: string;
export const DEFAULT_SQLITE_PATH: string;
export function resolveDatabaseUrl(
  raw: string | undefined,
): { provider: 'sqlite'; url: string; file: string } | { provider: 'postgres'; url: string };
