/**
 * Webhook deliveries on PostgreSQL are graphile-worker jobs run by real worker processes: the
 * request that paused the run only recorded the delivery and enqueued its job (the receiver hears
 * nothing until a worker runs), a receiver answering 500 is retried with the engine's backoff and
 * then given up with the endpoint marked failing, and a receiver that was down at the first attempt
 * gets the retry once it is back (same webhook-id).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '../actions/testing/action-env';
import { testProviders } from '../db/testing/test-databases';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../notify/testing/receiver';
import { GraphileQueue } from './graphile';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;
const SECRET = `whsec_${Buffer.from('thirty-two bytes of webhook key!').toString('base64')}`;
const VARS = { STOCKROOM_EVIDENCE_KEY: 'an evidence key for the webhook worker test, 32+', STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true', STOCKROOM_WEBHOOK_ATTEMPTS: '2' };

describe.skipIf(pgSkip !== null)('webhook deliveries as jobs (PostgreSQL, worker processes)', { timeout: 300_000 }, () => {
  let env: ActionEnv;
  let queue: GraphileQueue;
  const receivers: Receiver[] = [];
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    Object.assign(process.env, VARS); // this process enqueues (attempts), the workers inherit the rest
    env = await setUpActionEnv({ provider: 'postgres' });
    queue = new GraphileQueue(env.url);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    for (const r of receivers) await r.close();
    await queue?.close();
    await env?.cleanup();
    for (const k of Object.keys(VARS)) delete process.env[k];
  });

  const db = async () => (await import('../db/core/client')).getDb().prisma;
  const addHook = async (url: string) => {
    const { addWebhookAction } = await import('../actions/add-webhook');
    env.as('admin');
    const res = await addWebhookAction({ url, secret: SECRET, events: ['approval.requested'] });
    if (!res.ok) throw new Error(res.error);
    return res.data.endpoint.id;
  };
  const pause = async () => {
    const { runGovernedAction } = await import('../actions/run-governed');
    env.as('operator');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!res.ok || !res.data.approvalId) throw new Error(`the run did not pause: ${JSON.stringify(res)}`);
    return res.data;
  };
  const settled = async (endpointId: string, status: string) => {
    const prisma = await db();
    for (let i = 0; ; i++) {
      const d = await prisma.webhookDelivery.findFirst({ where: { endpointId } });
      if (d?.status === status) return d;
      if (i > 600) throw new Error(`delivery not ${status}: ${JSON.stringify(d)}\n${workers.map((w) => w.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('records and enqueues with the request, sends nothing itself, and a worker sends it signed', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpointId = await addHook(receiver.url);
    const { approvalId } = await pause();
    // Nothing was sent by the request: the delivery waits as a job.
    expect(receiver.received).toHaveLength(0);
    // Recorded just after the answer (not awaited by it), as a job: none sent without a worker.
    for (let i = 0; (await queue.countJobs('webhook')) < 1; i++) {
      if (i > 600) throw new Error('no webhook job');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await (await db()).webhookDelivery.findFirst({ where: { endpointId } })).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await queue.countJobs('webhook')).toBe(1);
    expect(receiver.received).toHaveLength(0);

    workers.push(await spawnWorker({ databaseUrl: env.url, concurrency: 2 }));
    const [r] = await receiver.waitFor(1, 60_000);
    expect(verifyStandardWebhook(SECRET, r!)).toMatchObject({ type: 'approval.requested', data: { requestId: approvalId } });
    expect(await settled(endpointId, 'delivered')).toMatchObject({ attempts: 1, responseCode: 200 });
  });

  it('retries a 500 with the engine’s backoff, then gives up and marks the endpoint failing', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.answer({ status: 503, body: 'maintenance' });
    const endpointId = await addHook(receiver.url);
    await pause();
    const d = await settled(endpointId, 'failed');
    expect(d).toMatchObject({ attempts: 2, responseCode: 503, lastError: 'answered 503: maintenance' });
    expect(receiver.received).toHaveLength(2);
    expect((await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).failing).toBe(true);
  });

  it('delivers on the retry to a receiver that was down at the first attempt', async () => {
    const first = await startReceiver();
    const port = first.port;
    const endpointId = await addHook(first.url);
    await first.close(); // down
    await pause();
    const prisma = await db();
    for (let i = 0; ; i++) {
      const d = await prisma.webhookDelivery.findFirst({ where: { endpointId } });
      if (d && d.attempts >= 1) {
        expect(d).toMatchObject({ status: 'pending', responseCode: null, lastError: expect.stringMatching(/ECONNREFUSED/) });
        break;
      }
      if (i > 600) throw new Error('no first attempt');
      await new Promise((r) => setTimeout(r, 50));
    }
    const back = await startReceiver(port);
    receivers.push(back);
    const [r] = await back.waitFor(1, 60_000);
    expect(verifyStandardWebhook(SECRET, r!)).toMatchObject({ type: 'approval.requested' });
    expect(await settled(endpointId, 'delivered')).toMatchObject({ attempts: 2, responseCode: 200 });
  });
});
