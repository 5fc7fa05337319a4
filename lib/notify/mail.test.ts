/**
 * Email notifications against a real SMTP server (smtp-server) on 127.0.0.1: one attempt delivers
 * the subject and text with the delivery id as Message-ID; a refusal, a server that never answers
 * and one that is not there are results for the delivery log; credentials reach the server only as
 * AUTH and only the endpoint's own with its own host. Settings are refused at save naming the field.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkEmailSettings, emailBody, NotifyError, sendMailOnce, smtpForSend, smtpFromEnv, type EventData, type ResolvedSmtp } from './index';
import { startSmtpReceiver, type SmtpReceiver } from './testing/smtp-receiver';

const ROOT = Buffer.from('an evidence key of at least thirty-two characters', 'utf8');
const DATA: EventData = {
  tenant: 'kittiwake',
  runId: 'run_1',
  requestId: 'apr_1',
  tool: 'create_restock_request',
  rule: 'restock-above-auto-approve',
  message: 'Restocks above the auto-approve limit need a reviewer',
  approverRole: 'reviewer',
  quorum: 2,
  approvals: 1,
  status: 'pending',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  verdict: null,
  terminationReason: null,
  escalatedTo: null,
  link: 'https://stockroom.example.test/approvals/apr_1',
};

let smtp: SmtpReceiver | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

const settings = (r: SmtpReceiver, extra: Partial<ResolvedSmtp> = {}): ResolvedSmtp => ({ host: r.host, port: r.port, secure: false, from: 'stockroom@example.test', credentials: null, hostFromEndpoint: false, ...extra });
const message = (id = 'msg_1') => {
  const { subject, text } = JSON.parse(emailBody('approval.requested', DATA, new Date())) as { subject: string; text: string };
  return { to: ['ana@example.test', 'bo@example.test'], subject, text, id, event: 'approval.requested' };
};

describe('one email attempt against a real SMTP server', () => {
  it('delivers the subject and text to every recipient, with the link, the quorum and the delivery id as Message-ID', async () => {
    smtp = await startSmtpReceiver();
    const out = await sendMailOnce({ smtp: settings(smtp), message: message('msg_abc'), timeoutMs: 5000, allowPrivate: true });
    expect(out).toEqual({ ok: true, status: 250, error: null });
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ from: 'stockroom@example.test', to: ['ana@example.test', 'bo@example.test'], subject: 'Approval needed: create_restock_request in kittiwake', auth: null });
    expect(mail!.headers['message-id']).toBe('<msg_abc@stockroom.notifications>');
    expect(mail!.headers['x-stockroom-event']).toBe('approval.requested');
    expect(mail!.text).toContain('Open it: https://stockroom.example.test/approvals/apr_1');
    expect(mail!.text).toContain('1 of 2 approvals');
    expect(mail!.text).toMatch(/sign in; the link itself approves or denies nothing/);
  });

  it('reports a refusal with the server’s code, and a server that never answers within the timeout', async () => {
    smtp = await startSmtpReceiver();
    smtp.answer({ code: 550, message: 'mailbox unavailable' });
    expect(await sendMailOnce({ smtp: settings(smtp), message: message(), timeoutMs: 5000, allowPrivate: true })).toMatchObject({ ok: false, status: 550, error: expect.stringMatching(/mailbox unavailable/) });
    smtp.answer('hang');
    expect(await sendMailOnce({ smtp: settings(smtp), message: message(), timeoutMs: 400, allowPrivate: true })).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/400 ms|timeout/i) });
  });

  it('reports a server that is not there without a code', async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const out = await sendMailOnce({ smtp: { host: '127.0.0.1', port, secure: false, from: 'a@example.test', credentials: null, hostFromEndpoint: false }, message: message(), timeoutMs: 2000, allowPrivate: true });
    expect(out).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/ECONNREFUSED|ECONNECTION/) });
  });

  it('refuses a host the admin typed that is loopback unless the operator allows it, sending nothing', async () => {
    smtp = await startSmtpReceiver();
    await expect(sendMailOnce({ smtp: settings(smtp, { hostFromEndpoint: true }), message: message(), timeoutMs: 2000, allowPrivate: false })).rejects.toThrow(/smtpHost: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    expect(smtp.received).toHaveLength(0);
  });

  it('logs in with the endpoint’s sealed credentials: the server receives them as AUTH, the stored form does not contain them', async () => {
    smtp = await startSmtpReceiver({ users: { 'relay-user': 'relay password 42' } });
    const checked = checkEmailSettings({ recipients: 'ana@example.test', smtpHost: smtp.host, smtpPort: smtp.port, smtpFrom: 'noreply@example.test', smtpUser: 'relay-user', smtpPassword: 'relay password 42' }, ROOT, { STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(checked.sealed).not.toContain('relay password');
    expect(checked.smtp).not.toContain('relay');
    const resolved = smtpForSend(checked.smtp, checked.sealed, ROOT, {});
    expect(await sendMailOnce({ smtp: resolved, message: message(), timeoutMs: 5000, allowPrivate: true })).toMatchObject({ ok: true });
    expect((await smtp.waitFor(1))[0]!.auth).toEqual({ user: 'relay-user', pass: 'relay password 42' });
    const wrong = smtpForSend(checked.smtp, checkEmailSettings({ recipients: 'ana@example.test', smtpHost: smtp.host, smtpPort: smtp.port, smtpFrom: 'noreply@example.test', smtpUser: 'relay-user', smtpPassword: 'nope' }, ROOT, { STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true' }).sealed, ROOT, {});
    expect(await sendMailOnce({ smtp: wrong, message: message(), timeoutMs: 5000, allowPrivate: true })).toMatchObject({ ok: false, status: 535 });
  });
});

describe('email settings at save', () => {
  const env = { STOCKROOM_SMTP_HOST: 'smtp.example.test', STOCKROOM_SMTP_FROM: 'stockroom@example.test' };
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      if (err instanceof NotifyError) return { field: err.field, message: err.message };
      throw err;
    }
    return null;
  };

  it('refuses a setting missing from both the endpoint and the operator’s environment, naming the field', () => {
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test' }, ROOT, {}))).toEqual({ field: 'smtpHost', message: expect.stringMatching(/^smtpHost: missing.*STOCKROOM_SMTP_HOST/) });
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpHost: 'smtp.example.test' }, ROOT, {}))).toEqual({ field: 'smtpFrom', message: expect.stringMatching(/^smtpFrom: missing.*STOCKROOM_SMTP_FROM/) });
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test' }, ROOT, env))).toBeNull();
  });

  it('refuses bad recipients, a bad sender, half a credential pair, and a loopback host the operator has not allowed', () => {
    expect(refusal(() => checkEmailSettings({ recipients: ' , ' }, ROOT, env))?.field).toBe('recipients');
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test, not-an-address' }, ROOT, env))).toEqual({ field: 'recipients', message: expect.stringMatching(/not-an-address/) });
    expect(refusal(() => checkEmailSettings({ recipients: Array.from({ length: 21 }, (_, i) => `r${i}@example.test`).join(',') }, ROOT, env))?.message).toMatch(/at most 20/);
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpFrom: 'nobody' }, ROOT, env))?.field).toBe('smtpFrom');
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpHost: 'mail.example.test', smtpUser: 'u' }, ROOT, env))?.field).toBe('smtpPassword');
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpHost: 'mail.example.test', smtpPassword: 'p' }, ROOT, env))?.field).toBe('smtpUser');
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpUser: 'u', smtpPassword: 'p' }, ROOT, env))?.field).toBe('smtpHost');
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpHost: '127.0.0.1' }, ROOT, env))).toEqual({ field: 'smtpHost', message: expect.stringMatching(/loopback, private or link-local/) });
    expect(refusal(() => checkEmailSettings({ recipients: 'ana@example.test', smtpHost: 'bad host!' }, ROOT, env))?.field).toBe('smtpHost');
  });

  it('keeps recipients as a mailto URL without repeats, and the endpoint’s own settings without credentials', () => {
    const c = checkEmailSettings({ recipients: 'Ana@Example.test; bo@example.test\nana@example.test', smtpPort: 2525 }, ROOT, env);
    expect(c.url).toBe('mailto:ana@example.test,bo@example.test');
    expect(JSON.parse(c.smtp)).toEqual({ port: 2525 });
  });

  it('uses the operator’s credentials only with the operator’s host, never with a host the admin typed', () => {
    const operator = { ...env, STOCKROOM_SMTP_USER: 'op', STOCKROOM_SMTP_PASSWORD: 'operator secret' };
    const fromEnv = checkEmailSettings({ recipients: 'ana@example.test' }, ROOT, operator);
    expect(smtpForSend(fromEnv.smtp, fromEnv.sealed, ROOT, operator)).toMatchObject({ host: 'smtp.example.test', port: 587, credentials: { user: 'op', pass: 'operator secret' } });
    const own = checkEmailSettings({ recipients: 'ana@example.test', smtpHost: 'mail.admin.example.test' }, ROOT, operator);
    expect(smtpForSend(own.smtp, own.sealed, ROOT, operator)).toMatchObject({ host: 'mail.admin.example.test', credentials: null, hostFromEndpoint: true });
  });

  it('names the operator’s variable when it is bad', () => {
    expect(() => smtpFromEnv({ STOCKROOM_SMTP_PORT: '99999' })).toThrow(/STOCKROOM_SMTP_PORT: must be a port/);
    expect(() => smtpFromEnv({ STOCKROOM_SMTP_SECURE: 'yes' })).toThrow(/STOCKROOM_SMTP_SECURE/);
    expect(() => smtpFromEnv({ STOCKROOM_SMTP_USER: 'u' })).toThrow(/STOCKROOM_SMTP_PASSWORD: missing/);
  });
});
