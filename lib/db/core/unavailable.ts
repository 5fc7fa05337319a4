/**
 * "The database is unavailable": one typed error for every way the store can be out of reach for a
 * while (PostgreSQL restarting, the network to it cut, its pool exhausted; an SQLite file on a full
 * disk or locked by another process), and the one classifier that recognises it in whatever a driver
 * threw. Nothing here imports Prisma or Next, so the web server, the workers, the CLI and the pages'
 * error boundaries (client components) all share it. The policy of what a caller is told (503, the
 * message) lives in lib/boundary/to-failure.ts.
 */
import { DbError } from './errors';

/** Why the database cannot be used right now. Each passes by itself, so a retry later may succeed. */
export type UnavailableReason = 'unreachable' | 'disk_full' | 'locked';

/**
 * Next keeps an error's own `digest` through a page render (its error handler "respects the original
 * digest"), so a page's error boundary can tell this error from any other without its message, which
 * production builds strip. Digest: `STOCKROOM_DB_UNAVAILABLE;<reason>`.
 */
export const DB_UNAVAILABLE_DIGEST = 'STOCKROOM_DB_UNAVAILABLE';

/** What a person is told for each reason, on a page, in a refused action and in the CLI. */
export const UNAVAILABLE_TEXT: Record<UnavailableReason, string> = {
  unreachable: 'The database is unavailable, retrying.',
  disk_full: 'The database’s disk is full, so nothing can be saved; it works again once space is freed.',
  locked: 'The database file is locked by another process; try again in a moment.',
};

/** The database could not be reached or written for a passing reason; nothing of the failed statement was stored. */
export class DatabaseUnavailableError extends DbError {
  readonly reason: UnavailableReason;
  /** Read by Next's error handling and the pages' error boundaries (app/error.tsx, app/global-error.tsx). */
  readonly digest: string;
  constructor(reason: UnavailableReason, options?: { cause?: unknown; message?: string }) {
    super('db_unavailable', options?.message ?? UNAVAILABLE_TEXT[reason], { cause: options?.cause });
    this.reason = reason;
    this.digest = `${DB_UNAVAILABLE_DIGEST};${reason}`;
  }
}

/** The reason carried by a render error's digest, or null for any other error (client-safe). */
export function unavailableReasonOfDigest(digest: string | undefined): UnavailableReason | null {
  if (!digest?.startsWith(`${DB_UNAVAILABLE_DIGEST};`)) return null;
  const reason = digest.slice(DB_UNAVAILABLE_DIGEST.length + 1);
  return reason in UNAVAILABLE_TEXT ? (reason as UnavailableReason) : null;
}

/** Prisma error codes that mean the server could not be reached or dropped the connection. */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
/** Driver-adapter error kinds (Prisma's `meta.driverAdapterError.cause.kind`) that mean the same. */
const ADAPTER_UNREACHABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket errors node-postgres passes through. */
const SOCKET_UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN']);
/**
 * What node-postgres, the server and Prisma say when the connection died or never came, where they
 * give no code (node-postgres' own errors; a server message passed on as text; Prisma's engine text),
 * anywhere in the message: a caller that wraps the error keeps the words after its own.
 */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Connection ended unexpectedly|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|server closed the connection|Can't reach database server|Server has closed the connection|read ECONNRESET|connect ECONNREFUSED/i;

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01–57P04 (administrator or crash shutdown,
 * cannot connect now: a restart; the database dropped under us), 53300 (too many connections), 25006 (read-only transaction: a
 * fail-over left us on a standby), 53100 (disk full).
 */
function pgStateReason(code: string): UnavailableReason | null {
  if (code === '53100') return 'disk_full';
  if (code.startsWith('08') || /^57P0[1-4]$/.test(code) || code === '53300' || code === '25006') return 'unreachable';
  return null;
}

/** SQLite result codes (better-sqlite3's `code`, e.g. SQLITE_FULL, SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE). */
function sqliteCodeReason(code: string): UnavailableReason | null {
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR_FSYNC' || code === 'SQLITE_IOERR_SHMSIZE') return 'disk_full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_IOERR')) return 'unreachable';
  return null;
}

/** SQLite extended result codes (the adapter's `extendedCode`): primary code in the low byte. */
function sqliteNumberReason(code: number): UnavailableReason | null {
  const primary = code & 0xff;
  if (primary === 13) return 'disk_full'; // SQLITE_FULL
  if (primary === 5 || primary === 6) return 'locked'; // SQLITE_BUSY, SQLITE_LOCKED
  if (primary === 10 || primary === 14) return 'unreachable'; // SQLITE_IOERR, SQLITE_CANTOPEN
  return null;
}

type Loose = { code?: unknown; message?: unknown; kind?: unknown; cause?: unknown; meta?: unknown; originalCode?: unknown; extendedCode?: unknown; syscall?: unknown; reason?: unknown; errors?: unknown };

/** One value of the chain: the error itself, a driver-adapter cause object, or a wrapped cause. */
function reasonOf(value: Loose): UnavailableReason | null {
  const code = typeof value.code === 'string' ? value.code : null;
  const original = typeof value.originalCode === 'string' ? value.originalCode : null;
  // This error as another copy of this module made it (a worker's bundle, a serialised cause).
  if (code === 'db_unavailable' && typeof value.reason === 'string' && value.reason in UNAVAILABLE_TEXT) return value.reason as UnavailableReason;
  // The SQLite adapter reports SQLITE_BUSY as kind SocketTimeout; its original code says which.
  if (original?.startsWith('SQLITE_')) return sqliteCodeReason(original);
  if (typeof value.kind === 'string') {
    if (ADAPTER_UNREACHABLE.has(value.kind)) return 'unreachable';
    if (value.kind === 'postgres' && code) return pgStateReason(code);
    if (value.kind === 'sqlite' && typeof value.extendedCode === 'number') return sqliteNumberReason(value.extendedCode);
  }
  if (code) {
    if (PRISMA_UNREACHABLE.has(code)) return 'unreachable';
    if (SOCKET_UNREACHABLE.has(code)) return 'unreachable';
    if (code.startsWith('SQLITE_')) return sqliteCodeReason(code);
    if (/^[0-9A-Z]{5}$/.test(code)) {
      const r = pgStateReason(code);
      if (r) return r;
    }
  }
  if (typeof value.message === 'string' && CONNECTION_MESSAGES.test(value.message)) return 'unreachable';
  return null;
}

/**
 * The DatabaseUnavailableError a thrown value stands for, or null when it is any other failure.
 * Looks through Prisma's wrappers (`meta.driverAdapterError.cause`) and `cause` chains, so it
 * recognises what Prisma, its pg and better-sqlite3 adapters, node-postgres and better-sqlite3 throw.
 */
export function asDatabaseUnavailable(err: unknown): DatabaseUnavailableError | null {
  if (err instanceof DatabaseUnavailableError) return err;
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const value = queue.shift();
    if (typeof value === 'string') {
      if (CONNECTION_MESSAGES.test(value)) return new DatabaseUnavailableError('unreachable', { cause: err });
      continue;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof DatabaseUnavailableError) return value;
    const loose = value as Loose;
    const reason = reasonOf(loose);
    if (reason) return new DatabaseUnavailableError(reason, { cause: err });
    const meta = loose.meta as { driverAdapterError?: unknown } | undefined;
    if (meta && typeof meta === 'object') queue.push(meta.driverAdapterError);
    queue.push(loose.cause);
    // AggregateError (node's happy-eyeballs connect to several addresses) holds one error per attempt.
    if (Array.isArray(loose.errors)) queue.push(...loose.errors);
  }
  return null;
}

/** Whether a thrown value means the database is unavailable for a passing reason. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return asDatabaseUnavailable(err) !== null;
}
