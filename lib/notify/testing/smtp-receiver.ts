/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server): records each message (envelope, headers,
 * decoded text, the AUTH it was given) and answers as told — accept, refuse with a code, or never
 * answer the message (a server that hangs). It checks nothing itself; tests read what arrived.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string | null;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  raw: string;
  auth: { user: string; pass: string } | null;
  /** When the message had arrived whole (ms since the epoch). */
  at: number;
}

export type MailAnswer = 'accept' | 'hang' | { code: number; message: string };

export interface SmtpReceiver {
  host: string;
  port: number;
  received: ReceivedMail[];
  /** What the next messages get (default: accept). */
  answer(a: MailAnswer): void;
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** Headers (unfolded, lower-case names) and the text part decoded, of a single-part message. */
export function parseMessage(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text = cte === 'quoted-printable' ? decodeQuotedPrintable(body) : cte === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { headers, text: text.replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

export async function startSmtpReceiver(options: { users?: Record<string, string> } = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const waiters: Array<{ n: number; resolve: (r: ReceivedMail[]) => void }> = [];
  let answer: MailAnswer = 'accept';
  const auths = new Map<string, { user: string; pass: string }>();
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 200,
    authOptional: !options.users,
    allowInsecureAuth: true,
    onAuth(auth, session, cb) {
      const pass = options.users?.[auth.username ?? ''];
      if (pass === undefined || pass !== auth.password) return cb(new Error('Invalid username or password'));
      auths.set(session.id, { user: auth.username!, pass: auth.password! });
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, text } = parseMessage(raw);
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          headers,
          subject: headers.subject ?? '',
          text,
          raw,
          auth: auths.get(session.id) ?? null,
          at: Date.now(),
        });
        for (const w of [...waiters]) if (received.length >= w.n) w.resolve(received.slice(0, w.n));
        const a = answer;
        if (a === 'hang') return; // never answers the message
        if (a === 'accept') return cb(null, 'queued as test');
        cb(Object.assign(new Error(a.message), { responseCode: a.code }));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    received,
    answer: (a) => {
      answer = a;
    },
    waitFor: (n, timeoutMs = 20_000) =>
      received.length >= n
        ? Promise.resolve(received.slice(0, n))
        : new Promise((resolve, reject) => {
            const t = setTimeout(() => reject(new Error(`SMTP receiver: ${received.length} of ${n} messages after ${timeoutMs} ms`)), timeoutMs);
            waiters.push({ n, resolve: (r) => (clearTimeout(t), resolve(r)) });
          }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
