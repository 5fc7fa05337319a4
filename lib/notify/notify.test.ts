/**
 * The pieces of a webhook delivery, against real sockets on 127.0.0.1: Standard Webhooks signatures
 * (checked by the `standardwebhooks` reference library and by an independent verifier), the target
 * check (loopback, private, link-local refused unless the operator allows), secrets (length, sealing),
 * and one attempt against a receiver that answers 500, hangs, or is not there.
 */
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { checkEndpointSettings, checkSecret, isPrivateAddress, NotifyError, parseWebhookUrl, privateTargetsAllowed, sealSecret, sendOnce, signedHeaders, unsealSecret } from './index';
import { guardedLookup } from './target';
import { startReceiver, verifyStandardWebhook, type Receiver } from './testing/receiver';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const ROOT = Buffer.from('an evidence key of at least thirty-two characters', 'utf8');
let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

describe('Standard Webhooks signatures', () => {
  it('signs id.timestamp.body so the reference library verifies it, and a changed body fails', () => {
    const body = JSON.stringify({ type: 'approval.requested', data: { n: 1 } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(SECRET, 'msg_1', ts, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(SECRET).verify(body.replace('1', '2'), headers)).toThrow();
    expect(verifyStandardWebhook(SECRET, { headers, body })).toEqual(JSON.parse(body));
  });

  it('uses a secret without the whsec_ prefix as its UTF-8 bytes', () => {
    const plain = 'a plain secret of twenty-four+ bytes';
    const headers = signedHeaders(plain, 'msg_2', Math.floor(Date.now() / 1000), '{}');
    expect(() => verifyStandardWebhook(plain, { headers, body: '{}' })).not.toThrow();
    expect(() => verifyStandardWebhook(SECRET, { headers, body: '{}' })).toThrow(/signature/);
  });
});

describe('where a webhook may go', () => {
  it.each(['127.0.0.1', '127.8.9.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '224.0.0.1'])('refuses %s', (a) => {
    expect(isPrivateAddress(a)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1'])('allows the public address %s', (a) => {
    expect(isPrivateAddress(a)).toBe(false);
  });

  it('refuses a URL outside http(s), with credentials, or to loopback by name or number, naming the field', () => {
    for (const [url, re] of [
      ['ftp://hooks.example.test/x', /must be http or https/],
      ['file:///etc/passwd', /must be http or https/],
      ['not a url', /not a valid URL/],
      ['https://user:pw@hooks.example.test/x', /user name or password/],
      ['http://localhost:8080/x', /loopback/],
      ['http://127.0.0.1:8080/x', /loopback/],
      ['http://[::1]:8080/x', /loopback/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
      ['http://2130706433/x', /loopback/], // 127.0.0.1 written as one number
    ] as const) {
      const err = (() => {
        try {
          parseWebhookUrl(url, false);
          return null;
        } catch (e) {
          return e as NotifyError;
        }
      })();
      expect(err, url).toBeInstanceOf(NotifyError);
      expect(err!.field).toBe('url');
      expect(err!.message).toMatch(re);
    }
    expect(parseWebhookUrl('http://127.0.0.1:8080/x', true).port).toBe('8080');
  });

  it('reads the operator allowance strictly', () => {
    expect(privateTargetsAllowed({})).toBe(false);
    expect(privateTargetsAllowed({ STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'true' })).toBe(true);
    expect(() => privateTargetsAllowed({ STOCKROOM_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/STOCKROOM_WEBHOOK_ALLOW_PRIVATE must be true or false/);
  });

  it('refuses at connect time a name that resolves to loopback, and lets it through when allowed', async () => {
    // `localhost` always resolves to loopback; the URL check refuses that spelling earlier, so the socket's lookup is called directly.
    const look = (allow: boolean) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) => guardedLookup(allow)('localhost', { family: 4 }, (err, address) => resolve({ err, address })));
    expect((await look(false)).err?.message).toMatch(/localhost resolves to 127\.0\.0\.1, a loopback, private or link-local address/);
    expect(await look(true)).toEqual({ err: null, address: '127.0.0.1' });
  });

  it('sends nothing to a host name of this machine that resolves to loopback', async () => {
    receiver = await startReceiver();
    const name = os.hostname();
    const resolved = await dns.promises.lookup(name, { family: 4 }).catch(() => null);
    if (!resolved || !isPrivateAddress(resolved.address)) return; // this machine's name is public: nothing to show here
    const out = await sendOnce({ url: `http://${name}:${receiver.port}/hook`, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false });
    expect(out).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/resolves to .*not allowed by the operator/) });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('endpoint secrets', () => {
  it('refuses a secret under 24 bytes naming the field, counting whsec_ secrets by their decoded bytes', () => {
    expect(() => checkSecret('short')).toThrow(/secret: must have at least 24 bytes \(got 5\)/);
    expect(() => checkSecret(`whsec_${Buffer.alloc(16).toString('base64')}`)).toThrow(/got 16/);
    expect(() => checkSecret('whsec_not*base64')).toThrow(/base64/);
    expect(() => checkSecret(SECRET)).not.toThrow();
  });

  it('keeps a secret sealed: the stored form does not contain it and opens only with the same key', () => {
    const sealed = sealSecret(SECRET, ROOT);
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(unsealSecret(sealed, ROOT)).toBe(SECRET);
    expect(() => unsealSecret(sealed, Buffer.from('another key of at least thirty-two characters'))).toThrow(/cannot be opened/);
  });

  it('generates a secret when none is given and shows it once; a given one is not echoed', () => {
    const gen = checkEndpointSettings({ url: 'https://hooks.example.test/x' }, ROOT, {});
    expect(gen.generated).toMatch(/^whsec_/);
    expect(() => checkSecret(gen.generated!)).not.toThrow();
    expect(checkEndpointSettings({ url: 'https://hooks.example.test/x', secret: SECRET }, ROOT, {}).generated).toBeNull();
    expect(() => checkEndpointSettings({ url: 'http://127.0.0.1:9/x', secret: SECRET }, ROOT, {})).toThrow(/loopback/);
  });
});

describe('one delivery attempt against a real receiver', () => {
  it('delivers to a receiver that answers 200, with the body and headers as given', async () => {
    receiver = await startReceiver();
    const headers = signedHeaders(SECRET, 'msg_ok', Math.floor(Date.now() / 1000), '{"a":1}');
    expect(await sendOnce({ url: receiver.url, headers, body: '{"a":1}', timeoutMs: 5000, allowPrivate: true })).toEqual({ ok: true, status: 200, error: null });
    expect(verifyStandardWebhook(SECRET, receiver.received[0]!)).toEqual({ a: 1 });
    expect(receiver.received[0]!.headers['content-type']).toBe('application/json');
  });

  it('reports a 500 with its status and an excerpt of the answer', async () => {
    receiver = await startReceiver();
    receiver.answer({ status: 500, body: 'database is down' });
    expect(await sendOnce({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 5000, allowPrivate: true })).toEqual({ ok: false, status: 500, error: 'answered 500: database is down' });
  });

  it('treats a redirect as not delivered (never followed)', async () => {
    receiver = await startReceiver();
    receiver.answer({ status: 302 });
    expect(await sendOnce({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 5000, allowPrivate: true })).toMatchObject({ ok: false, status: 302 });
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a receiver that accepts and never answers, within the attempt timeout', async () => {
    receiver = await startReceiver();
    receiver.answer('hang');
    expect(await sendOnce({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 300, allowPrivate: true })).toEqual({ ok: false, status: null, error: 'no answer within 300 ms' });
    expect(receiver.received).toHaveLength(1);
  });

  it('reports a receiver that is not there (connection refused) without a status', async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    expect(await sendOnce({ url: `http://127.0.0.1:${port}/hook`, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: true })).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
