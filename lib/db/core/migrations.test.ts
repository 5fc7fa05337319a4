import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase } from './client';
import { createTestDatabaseUrl, testProviders } from '../testing/test-databases';

const providers = await testProviders();
const root = path.resolve(import.meta.dirname, '..', '..', '..');

/** The model section of a schema file: everything after the provider-specific header. */
function models(provider: string): string {
  const text = fs.readFileSync(path.join(root, 'prisma', provider, 'schema.prisma'), 'utf8');
  const marker = '// ---- models (keep identical across providers) ----';
  expect(text).toContain(marker);
  return text.slice(text.indexOf(marker));
}

describe('schema files', () => {
  it('declare identical models for SQLite and PostgreSQL', () => {
    expect(models('postgres')).toBe(models('sqlite'));
  });

  it('have the same migrations committed for both providers', () => {
    expect(listMigrations('postgres').map((m) => m.name)).toEqual(listMigrations('sqlite').map((m) => m.name));
    expect(listMigrations('sqlite').length).toBeGreaterThan(0);
  });
});

describe.each(providers)('migrations on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;

  test('apply from empty, then find nothing left to apply', async () => {
    const { url, drop } = await createTestDatabaseUrl(provider.name);
    try {
      const first = await migrate({ url });
      expect(first.applied).toEqual(listMigrations(provider.name).map((m) => m.name));
      expect((await migrate({ url })).applied).toEqual([]);
      const db = openDatabase(url);
      try {
        expect(await db.prisma.run.count()).toBe(0);
        expect(await db.prisma.suiteRun.count()).toBe(0);
      } finally {
        await db.close();
      }
    } finally {
      await drop();
    }
  });
});
