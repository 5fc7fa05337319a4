#!/usr/bin/env node
/**
 * `npm test`: the unit suite (Vitest), then the browser suite (Playwright), whose server
 * (scripts/start.mjs) makes a production build first when the build is older than the sources.
 *
 *   npm test                  # both suites
 *   npm run test:unit         # Vitest alone
 *   npm run test:e2e          # Playwright alone (builds when the build is stale)
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

/** Runs a command to its end with inherited output; resolves its exit code. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function seconds(since) {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}

async function main() {
  const generate = spawnSync(process.execPath, ['scripts/db-generate.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (generate.status !== 0) process.exit(generate.status ?? 1);

  // One suite after the other. Building beside the unit suite was tried: on two cores the build took
  // 899 s instead of about 200, the whole run was longer, and timing-sensitive fault tests (a worker
  // stopped mid-job, a crontab backfill) failed under the extra load. The browser suite's server
  // (scripts/start.mjs) builds when the build is older than the sources.
  const unitStarted = Date.now();
  const unit = await run(bin('vitest'), ['run']);
  console.log(`test: unit suite ${unit === 0 ? 'passed' : `failed (exit ${unit})`} after ${seconds(unitStarted)}`);
  if (unit !== 0) process.exit(unit);

  const e2e = await run(bin('playwright'), ['test']);
  process.exit(e2e);
}

main().catch((err) => {
  console.error(`test: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
