/**
 * Whether a job failed because its connection to the database was lost (PostgreSQL restarted or
 * failed over, the network was cut) rather than because of the job itself. Such a failure is not
 * the job's fault: it is handed back without spending one of its attempts (lib/jobs/graphile.ts).
 * The error may come from pg (graphile-worker's pool), from Prisma over @prisma/adapter-pg (a known
 * request error whose driver error names the socket error), or wrapped as a `cause`.
 */

/** Socket errors (Node) and Prisma's connection error codes. */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'P1001', // can't reach database server
  'P1002', // the database server was reached but timed out
  'P1008', // operations timed out
  'P1017', // server has closed the connection
  'P2024', // timed out fetching a new connection from the pool
]);

/** SQLSTATE classes 08 (connection exception) and 57P0x (admin/crash shutdown, cannot connect now). */
const SQLSTATE = /^(08\d{3}|57P0[1-4])$/;

/** What pg and Prisma say when the server went away mid-conversation. */
const MESSAGES =
  /Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Connection ended unexpectedly|server closed the connection|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection|DatabaseNotReachable|ConnectionClosed|SocketTimeout|read ECONNRESET|connect ECONNREFUSED|Client was closed and is not queryable/i;

function* chain(err: unknown, depth = 0): Generator<unknown> {
  if (err === null || err === undefined || depth > 6) return;
  yield err;
  if (typeof err !== 'object') return;
  const o = err as { cause?: unknown; errors?: unknown; meta?: unknown };
  if (o.cause !== undefined) yield* chain(o.cause, depth + 1);
  if (Array.isArray(o.errors)) for (const e of o.errors) yield* chain(e, depth + 1);
  if (o.meta && typeof o.meta === 'object') yield* chain((o.meta as { driverAdapterError?: unknown }).driverAdapterError, depth + 1);
}

/** True when the error (or any cause of it) says the database connection was lost or refused. */
export function isConnectionLost(err: unknown): boolean {
  for (const e of chain(err)) {
    if (typeof e === 'string') {
      if (MESSAGES.test(e)) return true;
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    const { code, originalCode, kind, message } = e as { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown };
    for (const c of [code, originalCode]) if (typeof c === 'string' && (CODES.has(c) || SQLSTATE.test(c))) return true;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}
