/**
 * Alert rules on the rollup, on both databases (issue 37): a breach fires once per window however many
 * sweeps see it, reaches the tenant's endpoints only, and a rule under its threshold stays quiet.
 */
import { expect } from 'vitest';
import { listAlertEvents, saveAlertRule } from '../db/review/alerts';
import { saveRun } from '../db/runs/runs-write';
import { createWebhookEndpoint } from '../db/auth/webhooks';
import { makeMeta, makeRun } from '../db/testing/run-fixtures';
import { describeOnDatabases } from '../db/testing/on-databases';
import { evaluateAlerts } from './alerts';
import { watchPendingRuns } from './watch-runs';

const NOW = new Date('2026-05-04T10:20:00.000Z');

describeOnDatabases('alert rules on $name', ({ test, db }) => {
  test('fires MODEL_ERROR share over its threshold once per hour, to the tenant’s own endpoints', async () => {
    const meta = makeMeta({ tenant: 'acme' });
    // The last complete hour (09:00–10:00): 1 MODEL_ERROR in 4 runs = 25%.
    for (let i = 0; i < 3; i++) await saveRun(makeRun({ runId: `ok${i}`, startedAt: `2026-05-04T09:1${i}:00.000Z` }), meta, db);
    await saveRun(makeRun({ runId: 'err', startedAt: '2026-05-04T09:40:00.000Z', terminationReason: 'MODEL_ERROR' }), meta, db);
    // The hour still filling (10:xx) has only errors: it is not judged yet.
    await saveRun(makeRun({ runId: 'err2', startedAt: '2026-05-04T10:05:00.000Z', terminationReason: 'MODEL_ERROR' }), meta, db);
    await watchPendingRuns({ db });
    const endpoint = await createWebhookEndpoint(db.prisma, { tenant: 'acme', url: 'https://hooks.example.com/acme', format: 'standard', events: ['alert.fired'], role: 'reviewer', secretSealed: 'sealed', createdBy: 'test' });
    await createWebhookEndpoint(db.prisma, { tenant: 'other', url: 'https://hooks.example.com/other', format: 'standard', events: ['alert.fired'], role: 'reviewer', secretSealed: 'sealed', createdBy: 'test' });
    await saveAlertRule('acme', { name: 'errors', kind: 'error_share', threshold: 0.05 }, 'admin', db);
    await saveAlertRule('acme', { name: 'quiet', kind: 'error_share', threshold: 0.5 }, 'admin', db);
    await saveAlertRule('acme', { name: 'spend', kind: 'daily_cost', threshold: 100 }, 'admin', db);
    const enqueued: string[] = [];
    const queue = { enqueueDeliveries: async (ids: readonly string[]) => void enqueued.push(...ids) };
    const fired = await evaluateAlerts(queue, NOW, db);
    expect(fired.map((f) => [f.ruleName, f.window])).toEqual([['errors', '2026-05-04T09']]);
    expect(fired[0]!.value).toBeCloseTo(0.25);
    expect(enqueued).toHaveLength(1);
    const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { id: enqueued[0]! } });
    expect(delivery.endpointId).toBe(endpoint.id);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'alert.fired', data: { tenant: 'acme', alert: { rule: 'errors', window: '2026-05-04T09' } } });
    // The next sweeps in the same breach window fire and send nothing more.
    expect(await evaluateAlerts(queue, new Date(NOW.getTime() + 60_000), db)).toEqual([]);
    expect(enqueued).toHaveLength(1);
    expect(await listAlertEvents('acme', 10, db)).toHaveLength(1);
    expect(await listAlertEvents('other', 10, db)).toEqual([]);
  });
});
