import 'server-only';
/**
 * The one error policy of actions and routes: known user-facing errors keep their message,
 * everything else becomes a generic message with a reference that is logged with the real error.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, InvalidInputError } from '../db/core';
import { asDatabaseUnavailable } from '../db/core';
import { ConfigError, DatasetError, ExecutorError } from '../harness';
import { TraceImportError } from '../otel';
import { AuthError } from '../auth/errors';
import { RunError } from '../runs/errors';
import { ActionError } from './errors';

export interface Failure {
  status: number;
  error: string;
  /** The ActionError's code; `internal` for anything unexpected. */
  code: string;
  fieldErrors?: Record<string, string[]>;
  /** For a 503: seconds after which sending again may succeed (the Retry-After header of a route). */
  retryAfterS?: number;
}

/** Seconds a client is asked to wait before sending again while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * `text` with every absolute path cut to its last part (`/srv/stockroom/data/orders.json` → `orders.json`):
 * a message about a dataset file names the file; the server's directories are not the browser's business.
 */
export function withoutServerPaths(text: string): string {
  return text.replace(/(?<![\w.:/])\/(?:[^\s'"`:,;)]+\/)*([^\s'"`:,;)/]+)\/?/g, '$1');
}

/**
 * Maps a thrown value to what the browser may see. `options.unavailable` is what the caller is told when the
 * database is unavailable (an action's own wording: "Your decision was not recorded: …"); by default
 * the reason's text (lib/db/core/unavailable.ts). That failure is a 503 with code `db_unavailable`: the
 * statement that failed wrote nothing, and sending again later is safe.
 */
export function toFailure(err: unknown, context: string, options: { unavailable?: string } = {}): Failure {
  const down = asDatabaseUnavailable(err);
  if (down) {
    console.error(`[${context}] the database is unavailable (${down.reason}): ${loggable(down.cause ?? down)}`);
    return { status: 503, code: 'db_unavailable', error: options.unavailable ?? down.message, retryAfterS: UNAVAILABLE_RETRY_AFTER_S };
  }
  if (err instanceof AuthError) return { status: err.code === 'unauthenticated' ? 401 : 403, error: err.message, code: err.code };
  if (err instanceof ActionError || err instanceof RunError) {
    const status = err.code === 'not_found' ? 404 : err.code === 'conflict' ? 409 : 400;
    return { status, error: err.message, code: err.code, fieldErrors: err.fieldErrors };
  }
  if (err instanceof NotFoundError) return { status: 404, code: 'not_found', error: `That ${err.entity} does not exist (it may have been deleted).` };
  if (err instanceof InvalidInputError) return { status: 400, code: 'invalid_input', error: err.message, fieldErrors: { [err.field]: [err.message] } };
  if (err instanceof TraceImportError) return { status: err.status, code: 'invalid_input', error: err.message, fieldErrors: { [err.field]: [err.message] } };
  // A configuration file or a tool server's command may sit anywhere on the server: named by file name only.
  if (err instanceof ConfigError) return { status: 400, code: 'invalid_input', error: withoutServerPaths(err.message) };
  if (err instanceof ExecutorError) return { status: 502, code: 'transport', error: `The tool transport failed: ${withoutServerPaths(err.message)}` };
  if (err instanceof DatasetError) return { status: 400, code: 'dataset', error: `The dataset could not be loaded: ${withoutServerPaths(err.message)}` };
  const ref = randomUUID().slice(0, 8);
  console.error(`[${context}] failed (ref ${ref}): ${loggable(err)}`);
  return { status: 500, code: 'internal', error: `Something went wrong on the server (ref ${ref}).` };
}

/**
 * What the server log keeps of an unexpected error: its class, code and where it was thrown, not its
 * message, which may quote what was being written (a prompt, a tool result, an imported span's text;
 * Prisma's messages quote the arguments). STOCKROOM_DEBUG=1 logs the message too, for development.
 */
export function loggable(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  const code = (err as { code?: unknown }).code;
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 8).join('\n');
  const message = process.env.STOCKROOM_DEBUG === '1' ? `: ${err.message}` : '';
  return `${err.name}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}${message}${frames ? `\n${frames}` : ''}`;
}

/** Headers of a route's failure answer: Retry-After on a 503, and never cached. */
export function failureHeaders(f: Failure): Record<string, string> {
  return f.retryAfterS === undefined ? {} : { 'retry-after': String(f.retryAfterS), 'cache-control': 'no-store' };
}
