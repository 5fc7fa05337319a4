/** Types for scripts/db-generate.mjs. */
export const PROVIDERS: readonly ['sqlite', 'postgres'];
export function needsGenerate(provider: 'sqlite' | 'postgres'): boolean;
export function generate(options?: { force?: boolean; quiet?: boolean }): string[];
export function generatedLine(done: string[], env?: Record<string, string | undefined>): string | null;
