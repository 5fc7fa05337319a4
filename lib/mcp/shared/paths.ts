/** Where the MCP server's files are, for spawning a stdio child. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Resolved from this file's path rather than with `new URL('../../', import.meta.url)`: Next's bundler
// treats `new URL(…, import.meta.url)` as an asset import and fails the build on a directory.
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The repository root: tsx is resolved from here when a stdio child runs TypeScript. */
export const REPO_ROOT = path.resolve(HERE, '../../..') + path.sep;
/** The small program a stdio child runs (no CLI dispatcher, to keep the spawn cheap). */
export const STDIO_ENTRY = path.join(HERE, '../server/stdio-entry.ts');
