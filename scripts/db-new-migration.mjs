#!/usr/bin/env node
/**
 * Writes the next migration for both providers after a schema change:
 *
 *   node scripts/db-new-migration.mjs <snake_case_name>
 *
 * Each migration folder keeps `schema.snapshot.prisma`, the schema it migrates to; the new SQL is a
 * schema-to-schema `prisma migrate diff` from the last snapshot to the current schema, which needs
 * no database (so it avoids prisma/orm#27403 on PostgreSQL). Review the SQL before committing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PROVIDERS } from './db-generate.mjs';
import { REPO_ROOT } from './db-url.mjs';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: node scripts/db-new-migration.mjs <snake_case_name>');
  process.exit(1);
}
const require = createRequire(import.meta.url);
const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');

for (const provider of PROVIDERS) {
  const dir = path.join(REPO_ROOT, 'prisma', provider);
  const migrations = path.join(dir, 'migrations');
  const existing = fs.existsSync(migrations) ? fs.readdirSync(migrations).filter((d) => /^\d{4}_/.test(d)).sort() : [];
  const last = existing.at(-1);
  // After the highest number, not the count: the numbers have gaps (0026, 0028), and a count reused 0026.
  const number = String(Math.max(0, ...existing.map((d) => Number(d.slice(0, 4)))) + 1).padStart(4, '0');
  const target = path.join(migrations, `${number}_${name}`);
  const snapshot = last ? path.join(migrations, last, 'schema.snapshot.prisma') : null;
  if (snapshot && !fs.existsSync(snapshot)) {
    console.error(`${provider}: ${snapshot} is missing; cannot diff`);
    process.exit(1);
  }
  fs.mkdirSync(target, { recursive: true });
  const from = snapshot ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
  const args = [cli, 'migrate', 'diff', '--config', path.join(dir, 'prisma.config.ts'), ...from];
  args.push('--to-schema-datamodel', path.join(dir, 'schema.prisma'), '--script', '-o', path.join(target, 'migration.sql'));
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, CHECKPOINT_DISABLE: '1' } });
  if (result.status !== 0) {
    fs.rmSync(target, { recursive: true, force: true });
    console.error(`${provider}: prisma migrate diff failed`);
    process.exit(1);
  }
  fs.copyFileSync(path.join(dir, 'schema.prisma'), path.join(target, 'schema.snapshot.prisma'));
  console.log(`${provider}: wrote ${path.relative(REPO_ROOT, target)}/migration.sql`);
}
