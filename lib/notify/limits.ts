/**
 * Notification tunables, read from the environment once per use with the variable named when bad.
 */
import { NotifyError } from './errors';

/** Fewest bytes a signing secret may have (the floor; Standard Webhooks issues 24–64). */
export const MIN_SECRET_BYTES = 24;
/** Attempts per delivery before it is given up and its endpoint marked failing (STOCKROOM_WEBHOOK_ATTEMPTS). */
export const DEFAULT_WEBHOOK_ATTEMPTS = 5;
/** How long one attempt may take, connect to last byte (STOCKROOM_WEBHOOK_TIMEOUT_MS). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Most response bytes kept in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 300;
/** A pending request with less than this left is announced as expiring once (STOCKROOM_APPROVAL_WARN_SECONDS). */
export const DEFAULT_EXPIRY_WARNING_SECONDS = 600;

type Env = Readonly<Record<string, string | undefined>>;

function intFromEnv(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new NotifyError('invalid_setting', `${name} must be an integer from ${min} to ${max} (got '${raw}')`, name);
  return n;
}

export const webhookAttempts = (env: Env = process.env) => intFromEnv(env, 'STOCKROOM_WEBHOOK_ATTEMPTS', DEFAULT_WEBHOOK_ATTEMPTS, 1, 25);
export const webhookTimeoutMs = (env: Env = process.env) => intFromEnv(env, 'STOCKROOM_WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_TIMEOUT_MS, 100, 120_000);
export const expiryWarningSeconds = (env: Env = process.env) => intFromEnv(env, 'STOCKROOM_APPROVAL_WARN_SECONDS', DEFAULT_EXPIRY_WARNING_SECONDS, 0, 7 * 24 * 3600);

/**
 * Whether the operator lets webhooks reach loopback, private and link-local addresses
 * (STOCKROOM_WEBHOOK_ALLOW_PRIVATE=true): off by default, so an admin-typed URL cannot reach the
 * server's own network (cloud metadata, the database, the dashboard itself).
 */
export function privateTargetsAllowed(env: Env = process.env): boolean {
  const raw = env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE;
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new NotifyError('invalid_setting', `STOCKROOM_WEBHOOK_ALLOW_PRIVATE must be true or false (got '${raw}')`, 'STOCKROOM_WEBHOOK_ALLOW_PRIVATE');
}
