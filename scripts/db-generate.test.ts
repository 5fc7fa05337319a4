import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { generate, generatedLine } from './db-generate.mjs';

describe('db-generate prints a line only when it generated something', () => {
  it('names the providers it generated, and says nothing when nothing was generated or npm runs with -s', () => {
    expect(generatedLine(['sqlite', 'postgres'], {})).toBe('db: Prisma clients generated (sqlite, postgres)');
    expect(generatedLine([], {})).toBeNull();
    expect(generatedLine(['sqlite'], { npm_config_loglevel: 'silent' })).toBeNull();
  });

  it('prints nothing when the clients are up to date (every npm run stockroom starts with it)', () => {
    generate({ quiet: true }); // up to date from here on
    const r = spawnSync(process.execPath, ['scripts/db-generate.mjs'], { encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'notice' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });
});
