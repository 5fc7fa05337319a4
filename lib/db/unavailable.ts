/**
 * Whether an error means the database could not be reached (refused, dropped, restarting, pool
 * exhausted) rather than that a statement failed: nothing reached it, so the caller may say that
 * nothing changed and that sending again is safe. Prisma reports these as P1001/P1002/P1008/P1017/
 * P2024 or, through a driver adapter, with `meta.driverAdapterError.cause.kind`; pg's own errors
 * carry a socket errno or a SQLSTATE of class 08 (connection exception) or 57P01–57P03 (shutdown).
 */

const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLSTATES = /^(08\w{3}|57P0[123]|53300)$/;
const MESSAGES = /Connection terminated|Can't reach database server|server closed the connection unexpectedly|the database system is (starting up|shutting down)/i;

/** True when `err` (or an error in its `cause` chain) says the database could not be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const o = e as { name?: unknown; code?: unknown; kind?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } }; cause?: unknown };
    if (o.name === 'PrismaClientInitializationError') return true;
    if (typeof o.code === 'string' && (PRISMA_CODES.has(o.code) || SOCKET_CODES.has(o.code) || SQLSTATES.test(o.code))) return true;
    if (typeof o.kind === 'string' && ADAPTER_KINDS.has(o.kind)) return true;
    const kind = o.meta?.driverAdapterError?.cause?.kind;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}
