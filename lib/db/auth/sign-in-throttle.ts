import 'server-only';
/**
 * Sign-in attempts counted per key in fixed windows, stored in the database so every server process
 * shares one count. One atomic upsert per key (SQLite ≥ 3.35 and PostgreSQL both speak
 * `INSERT … ON CONFLICT … DO UPDATE … RETURNING`): a new window starts at 1, otherwise the count goes
 * up by one, and the caller learns the count after its own attempt — no read-then-write race.
 */
import type { Prisma } from '../core';

export interface ThrottleRule {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

export interface ThrottleVerdict {
  allowed: boolean;
  /** This attempt's number in the current window. */
  attempts: number;
  /** Seconds until the window ends (when refused). */
  retryAfterS: number;
}

/** Counts one attempt under `key` and says whether it is within `rule`. */
export async function consumeSignInAttempt(prisma: Prisma, key: string, rule: ThrottleRule, nowMs = Date.now()): Promise<ThrottleVerdict> {
  const now = BigInt(nowMs);
  const cutoff = BigInt(nowMs - rule.windowMs);
  const rows = await prisma.$queryRaw<{ attempts: number | bigint; windowStartMs: number | bigint }[]>`
    INSERT INTO "SignInThrottle" ("key", "windowStartMs", "attempts") VALUES (${key}, ${now}, 1)
    ON CONFLICT ("key") DO UPDATE SET
      "attempts" = CASE WHEN "SignInThrottle"."windowStartMs" <= ${cutoff} THEN 1 ELSE "SignInThrottle"."attempts" + 1 END,
      "windowStartMs" = CASE WHEN "SignInThrottle"."windowStartMs" <= ${cutoff} THEN ${now} ELSE "SignInThrottle"."windowStartMs" END
    RETURNING "attempts", "windowStartMs"`;
  const row = rows[0]!;
  const attempts = Number(row.attempts);
  const windowEnds = Number(row.windowStartMs) + rule.windowMs;
  return { allowed: attempts <= rule.max, attempts, retryAfterS: Math.max(1, Math.ceil((windowEnds - nowMs) / 1000)) };
}

/** Removes windows that ended before `nowMs - olderThanMs` (housekeeping; counts stay correct without it). */
export async function pruneSignInThrottle(prisma: Prisma, olderThanMs: number, nowMs = Date.now()): Promise<number> {
  const r = await prisma.signInThrottle.deleteMany({ where: { windowStartMs: { lt: BigInt(nowMs - olderThanMs) } } });
  return r.count;
}
