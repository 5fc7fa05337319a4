/**
 * The security library's door: other libraries import lib/security through these named exports only
 * (lib/import-graph.test.ts refuses an import of its internals). Any name added here is public.
 */
export { redactSecrets } from './redact';
