/**
 * Issue 34's email notifications through the server actions on SQLite, against a real SMTP server
 * (smtp-server on 127.0.0.1) set as the operator's relay: an admin adds an email endpoint, an
 * operator's governed run pauses, and the reviewers' mailbox gets the request with a sign-in link
 * (no arguments, no credentials), then the decision. Sent by the same `webhook` jobs as webhooks: a
 * refusing server is retried, then the delivery is failed and the endpoint failing; redelivery
 * works; a missing SMTP setting is refused at save naming the field; admins only; tenants apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';
import { startSmtpReceiver, type SmtpReceiver } from '../notify/testing/smtp-receiver';
import { argumentLeak } from '../notify/testing/leaks';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const VARS = ['STOCKROOM_EVIDENCE_KEY_FILE', 'STOCKROOM_WEBHOOK_ATTEMPTS', 'STOCKROOM_WEBHOOK_TIMEOUT_MS', 'STOCKROOM_DASHBOARD_URL', 'STOCKROOM_SMTP_HOST', 'STOCKROOM_SMTP_PORT', 'STOCKROOM_SMTP_FROM', 'STOCKROOM_SMTP_USER', 'STOCKROOM_SMTP_PASSWORD'];
let env: ActionEnv;
let dir: string;
let smtp: SmtpReceiver;
const mod = async () => ({
  ...(await import('./add-email-endpoint')),
  ...(await import('./remove-webhook')),
  ...(await import('./redeliver-webhook')),
  ...(await import('./run-governed')),
  ...(await import('./decide-approval')),
  db: (await import('../db/core/client')).getDb().prisma,
  webhooks: await import('../db/auth/webhooks'),
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-email-'));
  smtp = await startSmtpReceiver({ users: { 'relay-user': 'the operator relay password' } });
  Object.assign(process.env, {
    STOCKROOM_EVIDENCE_KEY_FILE: path.join(dir, 'evidence-key'),
    STOCKROOM_WEBHOOK_ATTEMPTS: '3',
    STOCKROOM_WEBHOOK_TIMEOUT_MS: '2000',
    STOCKROOM_DASHBOARD_URL: 'https://stockroom.example.test',
    // The operator's relay, on this machine: trusted as configured (no private-target allowance needed).
    STOCKROOM_SMTP_HOST: smtp.host,
    STOCKROOM_SMTP_PORT: String(smtp.port),
    STOCKROOM_SMTP_FROM: 'stockroom@example.test',
    STOCKROOM_SMTP_USER: 'relay-user',
    STOCKROOM_SMTP_PASSWORD: 'the operator relay password',
  });
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
  await smtp?.close();
  for (const k of VARS) delete process.env[k];
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  smtp.answer('accept');
  smtp.received.length = 0;
  const { db } = await mod();
  await db.webhookEndpoint.deleteMany({});
});

async function addEmail(events: string[] = ['approval.requested', 'approval.decided'], extra: Record<string, unknown> = {}) {
  const { addEmailEndpointAction } = await mod();
  env.as('admin');
  const res = await addEmailEndpointAction({ recipients: 'ana@example.test, bo@example.test', events: events as never, ...extra });
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

describe('email notifications for approvals', () => {
  it('mails the reviewers that a request waits (a sign-in link, no arguments, no credentials), then that it was decided', async () => {
    const hook = await addEmail();
    expect(hook).toMatchObject({ format: 'email', url: 'mailto:ana@example.test,bo@example.test', smtp: {} });
    const { approvalId } = await pausedRun();
    const [first] = await smtp.waitFor(1);
    expect(first).toMatchObject({ from: 'stockroom@example.test', to: ['ana@example.test', 'bo@example.test'], subject: 'Approval needed: create_restock_request in kittiwake' });
    expect(first!.text).toContain(`Open it: https://stockroom.example.test/approvals/${approvalId}`);
    expect(first!.text).toContain('0 of 1 approvals');
    // Logged in with the operator's relay credentials, which appear nowhere in the message.
    expect(first!.auth).toEqual({ user: 'relay-user', pass: 'the operator relay password' });
    expect(first!.raw).not.toContain('relay password');
    expect(first!.raw).not.toMatch(argumentLeak(750));

    const { decideApprovalAction } = await mod();
    env.as('reviewer');
    expect(await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'supplier confirmed' })).toMatchObject({ ok: true });
    const [, second] = await smtp.waitFor(2);
    expect(second!.subject).toBe('Decided (approved): create_restock_request in kittiwake');
    const log = await until(() => deliveries(hook.id), (d) => d.length === 2 && d.every((x) => x.status === 'delivered'), 'both delivered');
    expect(log.map((d) => [d.event, d.status, d.attempts, d.responseCode])).toEqual([
      ['approval.requested', 'delivered', 1, 250],
      ['approval.decided', 'delivered', 1, 250],
    ]);
    // The Message-ID is the delivery id: the log and the mailbox name the same message.
    expect(first!.headers['message-id']).toBe(`<${log[0]!.id}@stockroom.notifications>`);
  });

  it('retries a server that refuses, then marks the delivery failed and the endpoint failing; an admin redelivers once it accepts', async () => {
    smtp.answer({ code: 451, message: 'try again later' });
    const hook = await addEmail(['approval.requested']);
    await pausedRun(); // returned while the server was refusing: nothing waited on it
    await smtp.waitFor(3);
    const [d] = await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'failed', 'given up');
    expect(d).toMatchObject({ status: 'failed', attempts: 3, responseCode: 451, lastError: expect.stringMatching(/try again later/) });
    expect(new Set(smtp.received.map((m) => m.headers['message-id'])).size).toBe(1);
    const { webhooks, db, redeliverWebhookAction } = await mod();
    expect((await webhooks.findWebhookEndpoint(db, 'kittiwake', hook.id))?.failing).toBe(true);

    smtp.answer('accept');
    env.as('admin');
    expect(await redeliverWebhookAction({ deliveryId: d!.id })).toEqual({ ok: true, data: { queued: d!.id } });
    await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'delivered', 'redelivered');
    expect((await deliveries(hook.id))[0]).toMatchObject({ attempts: 4, responseCode: 250 });
    expect((await webhooks.findWebhookEndpoint(db, 'kittiwake', hook.id))?.failing).toBe(false);
  });
});

describe('saving an email notification', () => {
  it('refuses a missing SMTP setting and bad recipients naming the field, and saves nothing', async () => {
    const { addEmailEndpointAction, db } = await mod();
    env.as('admin');
    delete process.env.STOCKROOM_SMTP_FROM;
    try {
      expect(await addEmailEndpointAction({ recipients: 'ana@example.test', events: ['approval.requested'] })).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { smtpFrom: [expect.stringMatching(/missing.*STOCKROOM_SMTP_FROM/)] } });
    } finally {
      process.env.STOCKROOM_SMTP_FROM = 'stockroom@example.test';
    }
    expect(await addEmailEndpointAction({ recipients: 'ana@', events: ['approval.requested'] })).toMatchObject({ ok: false, fieldErrors: { recipients: [expect.stringMatching(/not an email address/)] } });
    expect(await addEmailEndpointAction({ recipients: 'ana@example.test', smtpPort: '70000', events: ['approval.requested'] })).toMatchObject({ ok: false, fieldErrors: { smtpPort: [expect.any(String)] } });
    expect(await addEmailEndpointAction({ recipients: 'ana@example.test', smtpHost: '10.0.0.5', events: ['approval.requested'] })).toMatchObject({ ok: false, fieldErrors: { smtpHost: [expect.stringMatching(/private/)] } });
    expect(await db.webhookEndpoint.count()).toBe(0);
  });

  it('keeps the endpoint’s own password only sealed: not in the answer, the row’s clear fields, or the page’s data', async () => {
    const { addEmailEndpointAction, db, webhooks } = await mod();
    env.as('admin');
    const res = await addEmailEndpointAction({ recipients: 'ana@example.test', smtpHost: 'mail.example.test', smtpPort: 2525, smtpUser: 'mailer', smtpPassword: 'endpoint password 99', events: ['approval.requested'] });
    expect(res).toMatchObject({ ok: true, data: { endpoint: { smtp: { host: 'mail.example.test', port: 2525 } } } });
    expect(JSON.stringify(res)).not.toMatch(/endpoint password|mailer/);
    const row = await db.webhookEndpoint.findFirstOrThrow();
    expect(JSON.stringify({ ...row, secretSealed: undefined })).not.toMatch(/endpoint password|mailer/);
    expect(row.secretSealed).not.toContain('endpoint password');
    expect(JSON.stringify(await webhooks.listWebhookEndpoints(db, 'kittiwake'))).not.toMatch(/endpoint password|mailer|secretSealed/);
  });

  it('is for admins only, and another tenant cannot remove or redeliver this tenant’s email endpoint', async () => {
    const { addEmailEndpointAction, removeWebhookAction, redeliverWebhookAction } = await mod();
    for (const who of ['operator', 'reviewer', 'viewer'] as const) {
      env.as(who);
      expect(await addEmailEndpointAction({ recipients: 'ana@example.test', events: ['run.ended'] })).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const hook = await addEmail(['approval.requested']);
    await pausedRun();
    const [d] = await until(() => deliveries(hook.id), (ds) => ds[0]?.status === 'delivered', 'delivered');
    await env.addUser('otherAdmin2', 'admin2@other.example.test', [{ tenant: 'other-depot', roles: ['admin'] }]);
    env.as('otherAdmin2');
    expect(await removeWebhookAction({ endpointId: hook.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await redeliverWebhookAction({ deliveryId: d!.id })).toMatchObject({ ok: false, code: 'not_found' });
  });
});
