/**
 * Time on a request, with a fake clock: a rule's `escalate` announces a request still pending to the
 * escalation role's webhooks, a request about to expire is announced once, and an expired request is
 * announced and counted as a denial the run reads as a structured refusal (it finishes without the
 * write). The sweep does all of it (SQLite: the server's sweeper); nobody has to open a page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../notify/testing/receiver';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const SECRET = 'a plain webhook secret, thirty-two+';
let env: ActionEnv;
let dir: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-escalation-'));
  const policy = JSON.parse(fs.readFileSync('config/policy.json', 'utf8'));
  const rule = policy.tools.create_restock_request.rules.find((r: { effect: string }) => r.effect === 'approval_required');
  Object.assign(rule, { ttlSeconds: 3600, escalate: { afterSeconds: 900, to: 'admin' } });
  fs.writeFileSync(path.join(dir, 'policy.json'), JSON.stringify(policy));
  process.env.STOCKROOM_POLICY_FILE = path.join(dir, 'policy.json');
  process.env.STOCKROOM_EVIDENCE_KEY_FILE = path.join(dir, 'evidence-key');
  process.env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE = 'true';
  process.env.STOCKROOM_APPROVAL_WARN_SECONDS = '600';
  env = await setUpActionEnv();
});
afterAll(async () => {
  vi.useRealTimers();
  for (const r of receivers) await r.close();
  await env?.cleanup();
  for (const k of ['STOCKROOM_POLICY_FILE', 'STOCKROOM_EVIDENCE_KEY_FILE', 'STOCKROOM_WEBHOOK_ALLOW_PRIVATE', 'STOCKROOM_APPROVAL_WARN_SECONDS']) delete process.env[k];
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Signature checked; the timestamp against the (fake) time it was sent at, which the clock has since moved past. */
const verified = (x: Receiver['received'][number]) => verifyStandardWebhook(SECRET, x, Number(x.headers['webhook-timestamp'])) as { type: string };
const typesOf = (r: Receiver) => r.received.map((x) => verified(x).type);

describe('escalation, expiry warning and expiry', () => {
  it('escalates to the admins after escalate.afterSeconds, warns before expiry, then expires the request and the run finishes without the write', async () => {
    const reviewers = await startReceiver();
    const admins = await startReceiver();
    receivers.push(reviewers, admins);
    const { addWebhookAction } = await import('./add-webhook');
    env.as('admin');
    const all = ['approval.requested', 'approval.expiring', 'approval.escalated', 'approval.expired'] as const;
    expect(await addWebhookAction({ url: reviewers.url, secret: SECRET, events: [...all], role: 'reviewer' })).toMatchObject({ ok: true });
    expect(await addWebhookAction({ url: admins.url, secret: SECRET, events: [...all], role: 'admin' })).toMatchObject({ ok: true });

    const { runGovernedAction } = await import('./run-governed');
    env.as('operator');
    const started = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!started.ok) throw new Error(started.error);
    const { runId, approvalId } = started.data;
    await reviewers.waitFor(1);
    expect(typesOf(reviewers)).toEqual(['approval.requested']);

    const { sweepGovernedRuns } = await import('../runs/sweeper');
    const { deliveryQueueOf, getJobQueue } = await import('../jobs/queue');
    const queue = deliveryQueueOf(getJobQueue());
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = async (seconds: number) => {
      vi.setSystemTime(t0 + seconds * 1000);
      await sweepGovernedRuns(new Date(), queue);
    };

    await at(600); // before the escalation, long before expiry: nothing new
    await at(901); // past escalate.afterSeconds: the admins are told, the reviewers are not told again
    await admins.waitFor(1);
    expect(verified(admins.received[0]!)).toMatchObject({ type: 'approval.escalated', data: { requestId: approvalId, escalatedTo: 'admin', status: 'pending' } });
    await at(1200); // escalated already: once
    await at(3100); // 500 s left, inside the 600 s warning: the reviewers are warned, once
    await at(3200);
    await reviewers.waitFor(2);
    expect(typesOf(reviewers)).toEqual(['approval.requested', 'approval.expiring']);

    await at(3601); // expired: the run is told (a refusal it reads) and finishes; the expiry is announced
    await reviewers.waitFor(3);
    expect(typesOf(reviewers)).toEqual(['approval.requested', 'approval.expiring', 'approval.expired']);
    expect(typesOf(admins)).toEqual(['approval.escalated']);
    const { getDb } = await import('../db/core/client');
    const db = getDb().prisma;
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: approvalId! } })).toMatchObject({ status: 'expired' });
    const run = JSON.parse((await db.governedRun.findUniqueOrThrow({ where: { runId } })).result);
    expect(run.status).toBe('finished');
    // Fails closed: no write was dispatched, and the model was given a structured refusal for the call.
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
    const call = await db.toolCall.findFirstOrThrow({ where: { runId, name: 'create_restock_request' } });
    expect(call.errorCode).toMatch(/expired/);
  });

  it('refuses a policy whose escalation comes at or after its expiry, naming the field', async () => {
    const { PolicyDocumentSchema } = await import('../governance/policy-file');
    const policy = JSON.parse(fs.readFileSync('config/policy.json', 'utf8'));
    const rule = policy.tools.create_restock_request.rules.find((r: { effect: string }) => r.effect === 'approval_required');
    Object.assign(rule, { ttlSeconds: 600, escalate: { afterSeconds: 600, to: 'admin' } });
    const out = PolicyDocumentSchema.safeParse(policy);
    expect(out.success).toBe(false);
    expect(out.error!.issues[0]).toMatchObject({ path: expect.arrayContaining(['escalate', 'afterSeconds']), message: expect.stringMatching(/shorter than ttlSeconds/) });
  });
});
