/** One error base class for the data layer; subclasses carry a stable code and structured fields. */
export class DbError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A must-succeed lookup (`getXOrThrow`) found nothing. */
export class NotFoundError extends DbError {
  readonly entity: string;
  readonly key: string;
  constructor(entity: string, key: string) {
    super('not_found', `${entity} ${key} not found`);
    this.entity = entity;
    this.key = key;
  }
}

/** An argument the data layer refuses (bad cursor, bad range, unknown sort key, bad DATABASE_URL). */
export class InvalidInputError extends DbError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('invalid_input', message);
    this.field = field;
  }
}

/** What a lost or refused database connection says, at any depth of its causes (driver, adapter, Prisma). */
const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Connection terminated|terminating connection|server closed the connection|database system is (starting up|shutting down|in recovery)|Can't reach database server|connection .* closed|Client has encountered a connection error|Timed out fetching a new connection|P1001|P1002|P1017|57P01|57P02|57P03/i;

/**
 * Whether `err` is the database being unreachable (restarting, a cut connection) rather than a fault
 * of the work: such a failure is retried after a short wait and is not the work's fault.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; depth += 1) {
    const x = e as { message?: unknown; code?: unknown; cause?: unknown };
    if (UNAVAILABLE.test(`${String(x.code ?? '')} ${String(x.message ?? '')}`)) return true;
    e = x.cause;
  }
  return false;
}
