/**
 * One delivery attempt: a POST of the signed body to the endpoint, through the guarded lookup,
 * within the attempt timeout. Redirects are not followed (a 3xx is not a delivery). What comes back
 * is what the delivery log records: the status code (null when none came) and a short excerpt.
 */
import http from 'node:http';
import https from 'node:https';
import { RESPONSE_EXCERPT_BYTES } from './limits';
import { guardedLookup, parseWebhookUrl } from './target';

export interface AttemptResult {
  ok: boolean;
  /** The HTTP status, null when the receiver never answered (refused, reset, timed out). */
  status: number | null;
  /** What went wrong, in a line (null on success). */
  error: string | null;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

/** Sends once; never throws for the receiver's faults (they are the result), only for a URL refused outright. */
export function sendOnce({ url, headers, body, timeoutMs, allowPrivate, signal }: SendOptions): Promise<AttemptResult> {
  const target = parseWebhookUrl(url, allowPrivate);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'stockroom-webhooks/1' },
        lookup: guardedLookup(allowPrivate) as never,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < RESPONSE_EXCERPT_BYTES) chunks.push(c);
          kept += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_BYTES).replace(/\s+/g, ' ').trim();
          done({ ok, status, error: ok ? null : `answered ${status}${excerpt ? `: ${excerpt}` : ''}` });
        });
        res.on('error', (err) => done({ ok: false, status: res.statusCode ?? null, error: `the answer broke off: ${err.message}` }));
      },
    );
    // Connect to last byte: a receiver that accepts and then hangs is a failed attempt, not a wait.
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, status: null, error: err.code === 'target_refused' ? err.message : `${err.code ?? 'error'}: ${err.message}` }));
    req.end(body);
  });
}
