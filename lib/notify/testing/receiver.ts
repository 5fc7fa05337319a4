/**
 * A real webhook receiver on 127.0.0.1 for tests: records every request (headers, body) and answers
 * as told — 200, another status, or never (a receiver that hangs). It verifies nothing itself; tests
 * check signatures with `verifyStandardWebhook`, written from the spec independently of sign.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; body?: string } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** What the next requests get (default 200). */
  answer(a: Answer | ((n: number) => Answer)): void;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let answer: (n: number) => Answer = () => ({ status: 200, body: 'ok' });
  const hung = new Set<http.ServerResponse>();
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      waiters.splice(0).forEach((w) => w());
      const a = answer(received.length);
      if (a === 'hang') {
        hung.add(res);
        return;
      }
      res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    answer(a) {
      answer = typeof a === 'function' ? a : () => a;
    },
    async waitFor(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`the receiver got ${received.length} request(s), expected ${n}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received.slice(0, n);
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Verifies a request the Standard Webhooks way; returns the parsed body or throws saying why. */
export function verifyStandardWebhook(secret: string, r: Pick<Received, 'headers' | 'body'>, nowSeconds = Math.floor(Date.now() / 1000)): unknown {
  const id = r.headers['webhook-id'];
  const ts = r.headers['webhook-timestamp'];
  const sig = r.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') throw new Error('missing webhook-* headers');
  if (Math.abs(nowSeconds - Number(ts)) > 300) throw new Error('timestamp too far from now');
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64'));
  const ok = sig.split(' ').some((s) => {
    const [v, mac] = s.split(',');
    const given = Buffer.from(mac ?? '');
    return v === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new Error('signature does not match');
  return JSON.parse(r.body);
}
