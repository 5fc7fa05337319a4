/**
 * Sign-in setup for `npm start`, so a fresh clone works with no configuration:
 *   - BETTER_AUTH_SECRET (signs session cookies): when unset, a random one is generated once into
 *     .data/auth-secret (git-ignored, mode 0600) and reused on every start;
 *   - whether any dashboard user exists, so start can print how to create the first admin.
 * Plain Node ESM, like start.mjs.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './db-url.mjs';

/** Where the generated secret lives. */
export const SECRET_FILE = path.join(REPO_ROOT, '.data', 'auth-secret');

/** better-auth wants at least 32 characters. */
const MIN_SECRET_CHARS = 32;

/**
 * The secret to use: BETTER_AUTH_SECRET when set (it must be long enough), else the one in
 * .data/auth-secret, created on first use. Returns where it came from for the start-up log.
 */
export function ensureAuthSecret(env = process.env, file = SECRET_FILE) {
  const given = env.BETTER_AUTH_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < MIN_SECRET_CHARS) throw new Error(`BETTER_AUTH_SECRET must have at least ${MIN_SECRET_CHARS} characters`);
    return { secret: given, source: 'BETTER_AUTH_SECRET' };
  }
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_CHARS) return { secret: stored, source: path.relative(REPO_ROOT, file) };
  } catch {
    // not created yet
  }
  const secret = randomBytes(32).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, source: `${path.relative(REPO_ROOT, file)} (generated)` };
}

/** Where the generated evidence key lives (beside the auth secret; lib/governance/evidence-key.ts reads it). */
export const EVIDENCE_KEY_FILE = path.join(REPO_ROOT, '.data', 'evidence-key');

/**
 * The key that signs the governance evidence (kept outside the database it protects):
 * STOCKROOM_EVIDENCE_KEY when set (at least 32 characters), else .data/evidence-key, created once
 * (mode 0600) and reused. `audit verify` needs the same key.
 */
export function ensureEvidenceKey(env = process.env, file = EVIDENCE_KEY_FILE) {
  const given = env.STOCKROOM_EVIDENCE_KEY;
  if (given !== undefined && given !== '') {
    if (given.length < MIN_SECRET_CHARS) throw new Error(`STOCKROOM_EVIDENCE_KEY must have at least ${MIN_SECRET_CHARS} characters`);
    return { key: given, source: 'STOCKROOM_EVIDENCE_KEY' };
  }
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_CHARS) return { key: stored, source: path.relative(REPO_ROOT, file) };
  } catch {
    // not created yet
  }
  const key = randomBytes(32).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, source: `${path.relative(REPO_ROOT, file)} (generated)` };
}

/** Number of dashboard users in a migrated database (`target` from resolveDatabaseUrl). */
export async function countUsers(target) {
  if (target.provider === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(target.file, { readonly: true });
    try {
      return db.prepare('SELECT COUNT(*) AS n FROM "User"').get().n;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT COUNT(*)::int AS n FROM "User"');
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** What start prints when nobody can sign in yet. */
export function firstAdminHint(url) {
  return [
    'start: no dashboard user exists yet. Create the first admin (in another terminal, same DATABASE_URL):',
    "  npm run stockroom -- admin create --email you@example.com --password '<at least 12 characters>' --role admin,operator,reviewer --tenant kittiwake",
    `start: then sign in at ${url}/sign-in`,
  ].join('\n');
}
