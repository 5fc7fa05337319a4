/** Types for scripts/auth-setup.mjs. */
export const SECRET_FILE: string;
export function ensureAuthSecret(env?: Record<string, string | undefined>, file?: string): { secret: string; source: string };
export function countUsers(target: { provider: 'sqlite'; file: string } | { provider: 'postgres'; url: string }): Promise<number>;
export function firstAdminHint(url: string): string;
export const EVIDENCE_KEY_FILE: string;
export function ensureEvidenceKey(env?: Record<string, string | undefined>, file?: string): { key: string; source: string };
