/**
 * Whether the production build (.next) is older than the sources, and where Next's own CLI is.
 * Shared by `npm start` (scripts/start.mjs builds when stale) and `npm test` (scripts/test.mjs builds
 * beside the unit suite at the lowest CPU priority, so the browser suite's server finds it fresh).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './db-url.mjs';

/** Sources whose change makes the production build stale. */
const BUILD_INPUTS = ['app', 'components', 'lib', 'public', 'config', 'next.config.ts', 'proxy.ts', 'instrumentation.ts', 'instrumentation-node.ts', 'instrumentation-client.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];
const SKIP_DIRS = new Set(['node_modules', '.next', '.git', '.data', 'test-results', 'playwright-report']);

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

export function buildIsStale() {
  let built;
  try {
    built = fs.statSync(path.join(REPO_ROOT, '.next', 'BUILD_ID')).mtimeMs;
  } catch {
    return true;
  }
  return BUILD_INPUTS.some((input) => newestMtime(path.join(REPO_ROOT, input)) > built);
}

/** Next's CLI entry (run with `node`, not through npx). */
export function nextBin() {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('next/package.json')), 'dist', 'bin', 'next');
}
