/**
 * Issue 34's notifications through the server actions on SQLite (the in-process job queue runs the
 * webhook jobs): an admin adds a webhook, an operator's governed run pauses, and a real receiver on
 * 127.0.0.1 gets the signed `approval.requested` with a link (no arguments, no secret); the decision
 * and a run that ended other than COMPLETED follow. Faults: a receiver answering 500 or hanging is
 * retried with backoff, then the delivery is marked failed and the endpoint failing — and neither the
 * run nor the decision waits for it. Bad settings are refused naming the field; tenants are apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../notify/testing/receiver';
import { argumentLeak } from '../notify/testing/leaks';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const SECRET = `whsec_${Buffer.from('a webhook secret of thirty-two b').toString('base64')}`;
let env: ActionEnv;
let dir: string;
let receiver: Receiver;
const mod = async () => ({
  ...(await import('./add-webhook')),
  ...(await import('./remove-webhook')),
  ...(await import('./redeliver-webhook')),
  ...(await import('./run-governed')),
  ...(await import('./decide-approval')),
  db: (await import('../db/core/client')).getDb().prisma,
  webhooks: await import('../db/auth/webhooks'),
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-webhooks-'));
  process.env.STOCKROOM_EVIDENCE_KEY_FILE = path.join(dir, 'evidence-key');
  process.env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE = 'true'; // the receiver is on 127.0.0.1
  process.env.STOCKROOM_WEBHOOK_ATTEMPTS = '3';
  process.env.STOCKROOM_WEBHOOK_TIMEOUT_MS = '500';
  process.env.STOCKROOM_DASHBOARD_URL = 'https://stockroom.example.test';
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
  for (const k of ['STOCKROOM_EVIDENCE_KEY_FILE', 'STOCKROOM_WEBHOOK_ALLOW_PRIVATE', 'STOCKROOM_WEBHOOK_ATTEMPTS', 'STOCKROOM_WEBHOOK_TIMEOUT_MS', 'STOCKROOM_DASHBOARD_URL']) delete process.env[k];
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await receiver?.close();
  const { db } = await mod();
  await db.webhookEndpoint.deleteMany({});
});

async function addHook(events: string[] = ['approval.requested', 'approval.decided', 'approval.expired', 'run.ended'], extra: Record<string, unknown> = {}) {
  const { addWebhookAction } = await mod();
  env.as('admin');
  const res = await addWebhookAction({ url: receiver.url, secret: SECRET, events: events as never, ...extra });
  if (!res.ok) throw new Error(res.error);
  return res.data.endpoint;
}

async function pausedRun(): Promise<{ runId: string; approvalId: string }> {
  const { runGovernedAction } = await mod();
  env.as('operator');
  const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
  if (!res.ok) throw new Error(res.error);
  expect(res.data).toMatchObject({ status: 'paused' });
  return { runId: res.data.runId, approvalId: res.data.approvalId! };
}

async function deliveries(endpointId: string) {
  const { db } = await mod();
  return db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' } });
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhooks for approvals', () => {
  it('tells the receiver a request waits (signed, with a sign-in link, without the arguments), then that it was decided', async () => {
    receiver = await startReceiver();
    const hook = await addHook();
    const { approvalId, runId } = await pausedRun();
    const [first] = await receiver.waitFor(1);
    const body = verifyStandardWebhook(SECRET, first!) as { type: string; data: Record<string, unknown> };
    expect(body).toMatchObject({
      type: 'approval.requested',
      data: { tenant: 'kittiwake', runId, requestId: approvalId, tool: 'create_restock_request', rule: 'restock-above-auto-approve', quorum: 1, approvals: 0, status: 'pending', link: `https://stockroom.example.test/approvals/${approvalId}` },
    });
    // The call's arguments (750 units of a SKU) and the secret never leave in a notification.
    expect(first!.body).not.toMatch(argumentLeak(750));
    expect(first!.body).not.toContain(SECRET.slice(6));
    expect(first!.headers['webhook-id']).toMatch(/^msg_/);

    const { decideApprovalAction } = await mod();
    env.as('reviewer');
    expect(await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'supplier confirmed' })).toMatchObject({ ok: true });
    const [, second] = await receiver.waitFor(2);
    expect(verifyStandardWebhook(SECRET, second!)).toMatchObject({ type: 'approval.decided', data: { requestId: approvalId, status: 'approved', verdict: 'approve', approvals: 1 } });
    const log = await until(() => deliveries(hook.id), (d) => d.every((x) => x.status === 'delivered'), 'both delivered');
    expect(log.map((d) => [d.event, d.status, d.attempts, d.responseCode])).toEqual([
      ['approval.requested', 'delivered', 1, 200],
      ['approval.decided', 'delivered', 1, 200],
    ]);
  });

  it('announces a run that ended other than COMPLETED (never one that completed), each event once however often the state is read', async () => {
    receiver = await startReceiver();
    const hook = await addHook();
    const { approvalId, runId } = await pausedRun();
    const { decideApprovalAction, db } = await mod();
    env.as('reviewer');
    await decideApprovalAction({ id: approvalId, verdict: 'deny', reason: 'overstocked' });
    await receiver.waitFor(2);
    const { notifyGovernedRun } = await import('../runs/notifications');
    const { deliveryQueueOf, getJobQueue } = await import('../jobs/queue');
    const queue = deliveryQueueOf(getJobQueue());
    // A denied run is told and completes its answer: nothing about the run itself.
    const run = await db.governedRun.findUniqueOrThrow({ where: { runId } });
    expect(JSON.parse(run.result)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    await notifyGovernedRun(runId, queue);
    expect((await deliveries(hook.id)).map((d) => d.event)).toEqual(['approval.requested', 'approval.decided']);
    // The same run as if it had stopped at its step limit: the run's end is announced, once.
    await db.governedRun.update({ where: { runId }, data: { result: JSON.stringify({ ...JSON.parse(run.result), terminationReason: 'MAX_STEPS' }) } });
    await notifyGovernedRun(runId, queue);
    await notifyGovernedRun(runId, queue);
    const [, , third] = await receiver.waitFor(3);
    expect(verifyStandardWebhook(SECRET, third!)).toMatchObject({ type: 'run.ended', data: { runId, terminationReason: 'MAX_STEPS', link: `https://stockroom.example.test/runs/${runId}` } });
    expect((await deliveries(hook.id)).map((d) => d.event)).toEqual(['approval.requested', 'approval.decided', 'run.ended']);
  });

  it('sends a Slack-compatible text with the link when the endpoint asks for it', async () => {
    receiver = await startReceiver();
    await addHook(['approval.requested'], { format: 'slack' });
    const { approvalId } = await pausedRun();
    const [r] = await receiver.waitFor(1);
    const body = JSON.parse(r!.body) as { text: string };
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain(`https://stockroom.example.test/approvals/${approvalId}`);
    expect(body.text).toMatch(/0 of 1 approvals/);
  });
});

describe('a receiver that fails', () => {
  it('retries a 500 with backoff, then marks the delivery failed and the endpoint failing; the run paused at once', async () => {
    receiver = await startReceiver();
    receiver.answer({ status: 500, body: 'boom' });
    const hook = await addHook(['approval.requested']);
    await pausedRun(); // returned while the receiver was still failing: nothing waited on it
    await receiver.waitFor(3);
    const [d] = await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'failed', 'the delivery given up');
    expect(d).toMatchObject({ status: 'failed', attempts: 3, responseCode: 500, lastError: 'answered 500: boom' });
    // The same delivery each time: one webhook-id, so a receiver can drop repeats.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const { webhooks, db } = await mod();
    expect((await webhooks.findWebhookEndpoint(db, 'kittiwake', hook.id))?.failing).toBe(true);

    // Redelivered by an admin once the receiver is fixed: delivered, and the endpoint no longer failing.
    receiver.answer({ status: 204 });
    const { redeliverWebhookAction } = await mod();
    env.as('admin');
    expect(await redeliverWebhookAction({ deliveryId: d!.id })).toEqual({ ok: true, data: { queued: d!.id } });
    await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'delivered', 'redelivered');
    expect((await deliveries(hook.id))[0]).toMatchObject({ attempts: 4, responseCode: 204 });
    expect((await webhooks.findWebhookEndpoint(db, 'kittiwake', hook.id))?.failing).toBe(false);
  });

  it('gives up on a receiver that hangs after the attempt timeout each time, and a decision is not held up by it', async () => {
    receiver = await startReceiver();
    receiver.answer('hang');
    const hook = await addHook(['approval.requested', 'approval.decided']);
    const { approvalId } = await pausedRun();
    const { decideApprovalAction } = await mod();
    env.as('reviewer');
    expect(await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine' })).toMatchObject({ ok: true, data: { status: 'approved' } });
    const log = await until(() => deliveries(hook.id), (ds) => ds.length === 2 && ds.every((d) => d.status === 'failed'), 'both given up');
    expect(log.map((d) => [d.event, d.attempts, d.responseCode, d.lastError])).toEqual([
      ['approval.requested', 3, null, 'no answer within 500 ms'],
      ['approval.decided', 3, null, 'no answer within 500 ms'],
    ]);
  });

  it('records a receiver that is gone as failed with no response code', async () => {
    receiver = await startReceiver();
    const hook = await addHook(['approval.requested']);
    await receiver.close();
    await pausedRun();
    const [d] = await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'failed', 'given up');
    expect(d).toMatchObject({ attempts: 3, responseCode: null, lastError: expect.stringMatching(/ECONNREFUSED/) });
  });
});

describe('saving a webhook', () => {
  it('refuses a URL outside http(s), a short secret, and (without the operator allowance) a loopback target, naming the field and saving nothing', async () => {
    receiver = await startReceiver();
    const { addWebhookAction, db } = await mod();
    env.as('admin');
    expect(await addWebhookAction({ url: 'ftp://hooks.example.test/x', events: ['run.ended'] })).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { url: [expect.stringMatching(/http or https/)] } });
    expect(await addWebhookAction({ url: 'https://hooks.example.test/x', secret: 'too-short', events: ['run.ended'] })).toMatchObject({ ok: false, fieldErrors: { secret: [expect.stringMatching(/at least 24 bytes/)] } });
    expect(await addWebhookAction({ url: 'https://hooks.example.test/x', events: [] })).toMatchObject({ ok: false, fieldErrors: { events: [expect.any(String)] } });
    expect(await addWebhookAction({ url: 'https://hooks.example.test/x', events: ['approval.approved' as never] })).toMatchObject({ ok: false, fieldErrors: { 'events.0': [expect.any(String)] } });
    delete process.env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE;
    try {
      expect(await addWebhookAction({ url: receiver.url, secret: SECRET, events: ['run.ended'] })).toMatchObject({ ok: false, fieldErrors: { url: [expect.stringMatching(/loopback, private or link-local/)] } });
    } finally {
      process.env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE = 'true';
    }
    expect(await db.webhookEndpoint.count()).toBe(0);
  });

  it('stores the secret only sealed, and shows a generated one once', async () => {
    receiver = await startReceiver();
    const { addWebhookAction, db } = await mod();
    env.as('admin');
    const given = await addWebhookAction({ url: receiver.url, secret: SECRET, events: ['run.ended'] });
    expect(given).toMatchObject({ ok: true, data: { secret: null } });
    expect(JSON.stringify(given)).not.toContain(SECRET.slice(6));
    const row = await db.webhookEndpoint.findFirstOrThrow();
    expect(row.secretSealed).not.toContain(SECRET.slice(6, 30));
    const generated = await addWebhookAction({ url: receiver.url, events: ['run.ended'] });
    expect(generated).toMatchObject({ ok: true, data: { secret: expect.stringMatching(/^whsec_/) } });
  });

  it('is for admins only, and another tenant cannot see, remove or redeliver this tenant’s webhooks', async () => {
    receiver = await startReceiver();
    const { addWebhookAction, removeWebhookAction, redeliverWebhookAction, db, webhooks } = await mod();
    for (const who of ['operator', 'reviewer', 'viewer'] as const) {
      env.as(who);
      expect(await addWebhookAction({ url: receiver.url, secret: SECRET, events: ['run.ended'] })).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const hook = await addHook(['approval.requested']);
    await pausedRun();
    const [d] = await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'delivered', 'delivered');
    await env.addUser('otherAdmin', 'admin@other.example.test', [{ tenant: 'other-depot', roles: ['admin'] }]);
    env.as('otherAdmin');
    expect(await webhooks.listWebhookEndpoints(db, 'other-depot')).toEqual([]);
    expect(await removeWebhookAction({ endpointId: hook.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await redeliverWebhookAction({ deliveryId: d!.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await webhooks.listWebhookDeliveries(db, 'other-depot', hook.id)).toEqual([]);
    env.as('admin');
    expect(await removeWebhookAction({ endpointId: hook.id })).toEqual({ ok: true, data: { removed: hook.id } });
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it('sends another tenant’s events to none of this tenant’s webhooks', async () => {
    receiver = await startReceiver();
    const hook = await addHook(['approval.requested']);
    const { emitEvent } = await import('../notify');
    const { db } = await mod();
    const ids = await emitEvent(db, { enqueueDeliveries: async () => undefined }, {
      type: 'approval.requested',
      subject: 'apr_elsewhere',
      audience: 'reviewer',
      at: new Date(),
      data: { tenant: 'other-depot', runId: 'r', requestId: 'apr_elsewhere', tool: 't', rule: 'x', message: 'm', approverRole: 'reviewer', quorum: 1, approvals: 0, status: 'pending', expiresAt: null, verdict: null, terminationReason: null, escalatedTo: null, link: 'l' },
    });
    expect(ids).toEqual([]);
    expect(await deliveries(hook.id)).toEqual([]);
  });
});
