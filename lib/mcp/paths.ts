/** Where the MCP server's files are, for spawning a stdio child. */
import { fileURLToPath } from 'node:url';

/** The repository root: tsx is resolved from here when a stdio child runs TypeScript. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The small program a stdio child runs (no CLI dispatcher, to keep the spawn cheap). */
export const STDIO_ENTRY = fileURLToPath(new URL('./stdio-entry.ts', import.meta.url));
