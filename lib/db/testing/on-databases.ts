/**
 * One describe on each database: SQLite always, PostgreSQL when a server answers (test-databases.ts).
 * Each gets a new migrated database before its first test and drops it after its last, so a test file
 * says only what it tests:
 *
 *   describeOnDatabases('runs on $name', ({ db, test }) => {
 *     test('rebuilds a saved run', async () => { … saveRun(run, meta, db) … });
 *   });
 *
 * `db` and `t` stand in for the describe's database, which exists only once its first hook has run:
 * read them inside hooks and tests (a read before then throws, naming the describe). The describe's own
 * beforeAll hooks run after the database is made, its afterAll hooks before it is dropped.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Database } from '../core';
import { testProviders, type TestDatabase, type TestProvider } from './test-databases';

export interface DatabaseUnderTest {
  /** `sqlite` or `postgres`, and why it is skipped (null when it is available). */
  provider: TestProvider;
  /** `it`, or `it.skip` where the database is unavailable. */
  test: typeof it | typeof it.skip;
  /** The describe's database. */
  db: Database;
  /** The describe's database with its URL (`t.url`, to open a second connection or hand to a child process). */
  t: TestDatabase;
}

const providers = await testProviders();

/** `title` may name the database as `$name`. */
export function describeOnDatabases(title: string, body: (on: DatabaseUnderTest) => void): void {
  describe.each(providers)(title, (provider) => {
    let made: TestDatabase | undefined;
    beforeAll(async () => {
      if (provider.skipReason) return;
      made = await provider.create();
    });
    afterAll(async () => {
      await made?.drop();
      made = undefined;
    });
    const current = (): TestDatabase => {
      if (made) return made;
      throw new Error(`${title.replace('$name', provider.name)}: the database is made in the describe's first beforeAll; read it inside a hook or test`);
    };
    body({ provider, test: provider.skipReason ? it.skip : it, db: standIn(() => current().db), t: standIn(current) });
  });
}

/** An object that forwards every read to what `target` answers at the time of the read. */
function standIn<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d && { ...d, configurable: true };
    },
  });
}
