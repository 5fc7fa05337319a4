import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

describe('npm scripts on a fresh clone (lib/db/generated is git-ignored)', () => {
  it.each(['bench', 'test:unit', 'typecheck', 'build', 'stockroom', 'gate'])('npm run %s generates the Prisma clients first', (script) => {
    expect(pkg.scripts[`pre${script}`]).toMatch(/^node scripts\/db-generate\.mjs\b/);
  });
});
