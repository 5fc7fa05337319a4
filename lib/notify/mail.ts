/**
 * One email delivery attempt over SMTP (nodemailer). What comes back is what the delivery log
 * records for a webhook too: the server's reply code (250 when the message was accepted) and a
 * line saying what went wrong. A host the admin typed is resolved here and refused when it is a
 * loopback, private or link-local address the operator has not allowed; the connection then goes
 * to that approved address (the name kept for TLS). Credentials travel only over TLS, except to a
 * relay on this machine (loopback).
 */
import dns from 'node:dns';
import net from 'node:net';
import { NotifyError } from './errors';
import type { AttemptResult } from './send';
import type { ResolvedSmtp } from './smtp-settings';
import { isPrivateAddress } from './target';

export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  /** The delivery id: the same Message-ID on every attempt, so a mailbox can drop a repeat. */
  id: string;
  /** The event type, as an `X-Stockroom-Event` header for filters. */
  event: string;
}

export interface MailOptions {
  smtp: ResolvedSmtp;
  message: MailMessage;
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

const isLoopback = (address: string) => /^127\.|^::1$|^::ffff:127\./.test(address);

/** The address to connect to; throws NotifyError (target_refused) for a typed host that resolves somewhere private. */
async function approvedAddress(smtp: ResolvedSmtp, allowPrivate: boolean): Promise<string> {
  if (!smtp.hostFromEndpoint) return smtp.host; // the operator's own relay: trusted as configured
  const addresses = net.isIP(smtp.host) ? [{ address: smtp.host }] : await dns.promises.lookup(smtp.host, { all: true });
  const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw new NotifyError('target_refused', `smtpHost: ${smtp.host} resolves to ${refused.address}, a loopback, private or link-local address (not allowed by the operator)`, 'smtpHost');
  const first = addresses[0];
  if (!first) throw new NotifyError('target_refused', `smtpHost: ${smtp.host} has no address`, 'smtpHost');
  return first.address;
}

/** Sends once; the server's faults are the result, a refused target is thrown (retrying cannot help). */
export async function sendMailOnce({ smtp, message, timeoutMs, allowPrivate, signal }: MailOptions): Promise<AttemptResult> {
  let address: string;
  try {
    address = await approvedAddress(smtp, allowPrivate);
  } catch (err) {
    if (err instanceof NotifyError) throw err;
    const e = err as NodeJS.ErrnoException;
    return { ok: false, status: null, error: `${e.code ?? 'error'}: ${e.message}` };
  }
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.secure,
    ...(net.isIP(smtp.host) ? {} : { servername: smtp.host }),
    ...(smtp.credentials ? { auth: { user: smtp.credentials.user, pass: smtp.credentials.pass }, requireTLS: !smtp.secure && !isLoopback(address) } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // The message is plain text made here: no attachment or URL is ever fetched into it.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  const abort = () => transport.close();
  signal?.addEventListener('abort', abort, { once: true });
  // A server that accepts and then trickles: the whole attempt has the timeout, not each read.
  let timer: NodeJS.Timeout | undefined;
  const overall = new Promise<AttemptResult>((resolve) => {
    timer = setTimeout(() => {
      transport.close();
      resolve({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  try {
    const sent = transport
      .sendMail({
        from: smtp.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        messageId: `<${message.id}@stockroom.notifications>`,
        headers: { 'X-Stockroom-Event': message.event, 'Auto-Submitted': 'auto-generated' },
      })
      .then(
        (info): AttemptResult => {
          const code = Number.parseInt(String(info.response ?? ''), 10);
          const rejected = (info.rejected ?? []).map(String);
          if (rejected.length > 0) return { ok: false, status: Number.isNaN(code) ? null : code, error: `refused recipients: ${rejected.join(', ')}` };
          return { ok: true, status: Number.isNaN(code) ? 250 : code, error: null };
        },
        (err: Error & { responseCode?: number; code?: string }): AttemptResult => ({
          ok: false,
          status: err.responseCode ?? null,
          error: `${err.code ?? 'error'}: ${err.message}`.slice(0, 500),
        }),
      );
    return await Promise.race([sent, overall]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
    transport.close();
  }
}
