#!/usr/bin/env node
/**
 * `npm start`: everything a fresh clone needs after `npm ci`, then the production server.
 *   1. generate the Prisma clients if missing or stale (lib/db/generated is git-ignored),
 *   2. migrate the database (.data/stockroom.db by default, or DATABASE_URL),
 *   3. sign-in: a session secret (BETTER_AUTH_SECRET, or one generated into .data/auth-secret), and
 *      when no user exists, how to create the first admin; the evidence signing key
 *      (STOCKROOM_EVIDENCE_KEY, or one generated into .data/evidence-key),
 *   4. `next build` when .next/BUILD_ID is missing or older than the sources,
 *   5. the production server, scripts/serve.mjs (Next's handler behind node:http, stamping each request
 *      with the client address STOCKROOM_TRUST_PROXY says to trust) on 127.0.0.1:${PORT:-3000}.
 * Plain Node ESM, so it runs before anything is compiled.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { generate } from './db-generate.mjs';
import { migrate } from './db-migrate.mjs';
import { countUsers, ensureAuthSecret, ensureEvidenceKey, firstAdminHint } from './auth-setup.mjs';
import { parseTrustProxy } from './client-address.mjs';
import { REPO_ROOT, resolveDatabaseUrl } from './db-url.mjs';
import { buildIsStale, nextBin } from './build-state.mjs';

function fail(message) {
  console.error(`start: ${message}`);
  process.exit(1);
}

async function main() {
  process.chdir(REPO_ROOT);
  const port = process.env.PORT || '3000';
  if (!/^\d+$/.test(port)) fail(`PORT must be a number, got '${port}'`);
  try {
    parseTrustProxy(process.env.STOCKROOM_TRUST_PROXY);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  let target;
  try {
    target = resolveDatabaseUrl(process.env.DATABASE_URL);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const env = {
    ...process.env,
    // The app reads the resolved URL, so it opens exactly the database migrated here.
    DATABASE_URL: target.url,
    NEXT_TELEMETRY_DISABLED: '1',
    CHECKPOINT_DISABLE: '1',
  };

  const generated = generate({ quiet: true });
  if (generated.length) console.log(`start: generated Prisma clients (${generated.join(', ')})`);
  const { applied } = await migrate({ url: target.url });
  const where = target.provider === 'sqlite' ? path.relative(REPO_ROOT, target.file) || target.file : 'PostgreSQL';
  console.log(`start: database ${where} ${applied.length ? `migrated (${applied.join(', ')})` : 'up to date'}`);

  let auth;
  try {
    auth = ensureAuthSecret(process.env);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const baseUrl = process.env.BETTER_AUTH_URL || `http://127.0.0.1:${port}`;
  env.BETTER_AUTH_SECRET = auth.secret;
  env.BETTER_AUTH_URL = baseUrl;
  console.log(`start: session secret from ${auth.source}`);
  let evidence;
  try {
    evidence = ensureEvidenceKey(process.env);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  env.STOCKROOM_EVIDENCE_KEY = evidence.key;
  console.log(`start: evidence signing key from ${evidence.source}`);
  if ((await countUsers(target)) === 0) console.log(firstAdminHint(baseUrl));
  else console.log(`start: sign in at ${baseUrl}/sign-in`);

  const next = nextBin();
  if (buildIsStale()) {
    console.log('start: building (next build)…');
    const build = spawnSync(process.execPath, [next, 'build'], { stdio: 'inherit', env });
    if (build.status !== 0) fail(`next build failed (exit ${build.status})`);
  }

  console.log(`start: serving on http://127.0.0.1:${port}`);
  const server = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'serve.mjs')], { stdio: 'inherit', env: { ...env, HOST: '127.0.0.1', PORT: port } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
