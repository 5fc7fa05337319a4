#!/usr/bin/env node
/**
 * Generates the two Prisma clients (lib/db/generated/{sqlite,postgres}, git-ignored) when missing or
 * older than their schema. `--force` regenerates regardless. Runs the CLI on its JS engine through
 * prisma/<provider>/prisma.config.ts, offline.
 *
 *   node scripts/db-generate.mjs [--force]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './db-url.mjs';

export const PROVIDERS = /** @type {const} */ (['sqlite', 'postgres']);

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * Whether a provider's generated client is missing or older than its schema.
 * @param {'sqlite' | 'postgres'} provider
 */
export function needsGenerate(provider) {
  const client = path.join(REPO_ROOT, 'lib', 'db', 'generated', provider, 'client.ts');
  return mtime(client) < mtime(path.join(REPO_ROOT, 'prisma', provider, 'schema.prisma'));
}

/**
 * Generates what is stale (or everything with `force`); throws when the CLI fails.
 * @param {{ force?: boolean, quiet?: boolean }} [options]
 * @returns {string[]} the providers generated
 */
export function generate(options = {}) {
  const require = createRequire(import.meta.url);
  const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
  const done = [];
  for (const provider of PROVIDERS) {
    if (!options.force && !needsGenerate(provider)) continue;
    const result = spawnSync(
      process.execPath,
      [cli, 'generate', '--config', path.join('prisma', provider, 'prisma.config.ts')],
      {
        cwd: REPO_ROOT,
        stdio: options.quiet ? 'pipe' : 'inherit',
        env: { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1', NEXT_TELEMETRY_DISABLED: '1' },
      },
    );
    if (result.status !== 0) {
      const out = options.quiet ? `\n${result.stdout}${result.stderr}` : '';
      throw new Error(`prisma generate failed for ${provider} (exit ${result.status})${out}`);
    }
    done.push(provider);
  }
  return done;
}

/**
 * What the command line prints after generating: a line only when a client was generated, and
 * nothing under `npm run -s` (npm passes its log level to scripts as npm_config_loglevel), so
 * `npm run -s stockroom -- … --json` prints only what the command printed.
 * @param {string[]} done the providers generated
 * @param {Record<string, string | undefined>} env
 * @returns {string | null}
 */
export function generatedLine(done, env = process.env) {
  if (done.length === 0 || env.npm_config_loglevel === 'silent') return null;
  return `db: Prisma clients generated (${done.join(', ')})`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    // Under -s, prisma's own output is kept too (it is printed with the error if generating fails).
    const done = generate({ force: process.argv.includes('--force'), quiet: process.env.npm_config_loglevel === 'silent' });
    const line = generatedLine(done);
    if (line) console.log(line);
  } catch (err) {
    console.error(`db: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
