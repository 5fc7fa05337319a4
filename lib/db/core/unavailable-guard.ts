/**
 * Puts the classifier (unavailable.ts) between Prisma and every caller: a query, raw statement or
 * transaction that fails because the database is unavailable throws a DatabaseUnavailableError
 * instead of the driver's error. Pages then render their error boundary with its digest (so they say
 * "the database is unavailable, retrying", never an error reference), actions and routes answer it
 * with a 503 (lib/boundary/to-failure.ts), and workers and the CLI can tell it from a real failure.
 * Any other error passes through untouched.
 */
import { asDatabaseUnavailable, type UnavailableReason } from './unavailable';

/**
 * The production server (scripts/serve.mjs) keeps an AsyncLocalStorage here whose store is the
 * current request's state; a page whose render failed on an unavailable database is then answered
 * 503 with Retry-After instead of 500. Absent in tests, the CLI and workers.
 */
const REQUEST_STATE = Symbol.for('stockroom.request-state');

interface RequestState {
  dbUnavailable: UnavailableReason | null;
}

function noteOnRequest(reason: UnavailableReason): void {
  const als = (globalThis as Record<symbol, { getStore(): RequestState | undefined } | undefined>)[REQUEST_STATE];
  const store = als?.getStore();
  if (store) store.dbUnavailable = reason;
}

/** Rethrows a thrown value as a DatabaseUnavailableError when it is one, else as is. */
export function rethrowClassified(err: unknown): never {
  const unavailable = asDatabaseUnavailable(err);
  if (unavailable) {
    noteOnRequest(unavailable.reason);
    throw unavailable;
  }
  throw err;
}

interface Extendable {
  $extends(extension: unknown): unknown;
}

/** The same client, its failures classified. Typed as the client it wraps (the extension adds no API). */
export function guardUnavailable<C extends Extendable>(client: C): C {
  const extended = client.$extends({
    name: 'database-unavailable',
    query: {
      async $allOperations({ args, query }: { args: unknown; query: (args: unknown) => Promise<unknown> }) {
        try {
          return await query(args);
        } catch (err) {
          rethrowClassified(err);
        }
      },
    },
  }) as C;
  // A transaction that cannot start (BEGIN on a dead pool) fails outside any query hook.
  return new Proxy(extended, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== '$transaction' || typeof value !== 'function') return value;
      return (...args: unknown[]) => (value.apply(target, args) as Promise<unknown>).catch(rethrowClassified);
    },
  });
}
