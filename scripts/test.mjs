#!/usr/bin/env node
/**
 * `npm test`: the unit suite (Vitest), then the browser suite (Playwright). The browser suite needs a
 * production build (`next build`, 3–4 min of CPU here); the unit suite mostly waits on PostgreSQL, child
 * processes and sockets, so the build is made while it runs, and the browser suite's server
 * (scripts/start.mjs) finds it fresh instead of building after the unit suite has finished. The
 * build's output goes to a file and is printed only when it fails.
 *
 *   npm test                  # both suites
 *   npm run test:unit         # Vitest alone
 *   npm run test:e2e          # Playwright alone (builds when the build is stale)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

/** Runs a command to its end with inherited output; resolves its exit code. */
function run(command, args, { niceness, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    if (niceness !== undefined && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, niceness);
      } catch {
        // Not allowed here: it runs at the same priority.
      }
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function seconds(since) {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}

async function main() {
  const generate = spawnSync(process.execPath, ['scripts/db-generate.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (generate.status !== 0) process.exit(generate.status ?? 1);

  const buildLog = path.join(os.tmpdir(), `stockroom-test-build-${process.pid}.log`);
  const out = fs.openSync(buildLog, 'w');
  const buildStarted = Date.now();
  console.log(`test: next build runs beside the unit suite (its output: ${buildLog})`);
  // At a lower CPU priority than the tests: timing-sensitive fault tests (a worker killed, a lease run
  // out) must not be starved by the compiler; the build only has to be ready when the unit suite ends.
  const build = run(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    stdio: ['ignore', out, out],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    niceness: 10,
  }).then((code) => {
    fs.closeSync(out);
    console.log(`test: next build ${code === 0 ? 'finished' : `failed (exit ${code})`} after ${seconds(buildStarted)}`);
    return code;
  });

  const unit = await run(bin('vitest'), ['run']);
  const built = await build;
  if (built !== 0) {
    process.stdout.write(fs.readFileSync(buildLog, 'utf8').split('\n').slice(-60).join('\n') + '\n');
  }
  if (unit !== 0 || built !== 0) process.exit(unit || built);

  const e2e = await run(bin('playwright'), ['test']);
  process.exit(e2e);
}

main().catch((err) => {
  console.error(`test: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
