import { expect, it } from 'vitest';
import { consumeSignInAttempt, pruneSignInThrottle } from './sign-in-throttle';
import { describeOnDatabases } from '../testing/on-databases';

const RULE = { max: 3, windowMs: 60_000 };

describeOnDatabases('sign-in throttle on $name', ({ provider, t }) => {
  it.skipIf(provider.skipReason)('allows max attempts per window, refuses the next with the seconds left, and starts a new window', async () => {
    const now = 1_800_000_000_000;
    const verdicts = [];
    for (let i = 0; i < 5; i++) verdicts.push(await consumeSignInAttempt(t.db.prisma, 'account:a@example.com', RULE, now + i * 1000));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false, false]);
    expect(verdicts[4]).toMatchObject({ attempts: 5, retryAfterS: 56 });
    // Another key has its own count.
    expect((await consumeSignInAttempt(t.db.prisma, 'account:b@example.com', RULE, now)).allowed).toBe(true);
    // After the window, counting starts again.
    expect(await consumeSignInAttempt(t.db.prisma, 'account:a@example.com', RULE, now + RULE.windowMs)).toMatchObject({ allowed: true, attempts: 1 });
  });

  it.skipIf(provider.skipReason)('counts concurrent attempts exactly once each (the limit holds under a burst)', async () => {
    const now = 1_800_000_100_000;
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => consumeSignInAttempt(t.db.prisma, 'address:10.0.0.9', RULE, now)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(RULE.max);
    expect(verdicts.map((v) => v.attempts).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.skipIf(provider.skipReason)('prunes windows that ended long ago', async () => {
    await consumeSignInAttempt(t.db.prisma, 'address:old', RULE, 1_000);
    expect(await pruneSignInThrottle(t.db.prisma, RULE.windowMs, 1_800_000_200_000)).toBeGreaterThanOrEqual(1);
  });
});
