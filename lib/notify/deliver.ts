/**
 * The `webhook` job's work: one attempt at one delivery (a webhook POST, or an email over SMTP for
 * an `email` endpoint — the same job, log, retries and redelivery). The body was fixed when the event was
 * recorded; the signature is made now (a fresh `webhook-timestamp` each attempt, the delivery id as
 * `webhook-id` throughout, so a receiver drops a repeat). A failed attempt before the last is
 * retried by the job engine with its backoff; the last marks the delivery failed and its endpoint
 * failing. A delivered or given-up delivery is never sent again by a stray job.
 */
import type { Prisma } from '../db/core';
import { deliveryToSend, recordAttempt } from '../db/auth';
import { privateTargetsAllowed, webhookTimeoutMs } from './limits';
import { unsealSecret } from './secret';
import { sendOnce } from './send';
import { signedHeaders } from './sign';
import { NotifyError } from './errors';
import { sendMailOnce } from './mail';
import { recipientsOf, smtpForSend } from './smtp-settings';
import type { AttemptResult } from './send';

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'skipped';

export interface AttemptContext {
  attempt: number;
  maxAttempts: number;
  /** The key the secrets are sealed with (the evidence key). */
  rootKey: Buffer;
  signal?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
}

export async function deliverOnce(prisma: Prisma, id: string, ctx: AttemptContext): Promise<DeliveryOutcome> {
  const d = await deliveryToSend(prisma, id);
  // Deleted with its endpoint, or already settled (a redelivery's job or a repeat): nothing to send.
  if (!d || d.status !== 'pending') return 'skipped';
  const now = ctx.now ?? (() => new Date());
  const env = ctx.env ?? process.env;
  const final = ctx.attempt >= ctx.maxAttempts;
  let result: AttemptResult;
  try {
    const common = { timeoutMs: webhookTimeoutMs(env), allowPrivate: privateTargetsAllowed(env), signal: ctx.signal };
    if (d.endpoint.format === 'email') {
      const smtp = smtpForSend(d.endpoint.smtp, d.endpoint.secretSealed, ctx.rootKey, env);
      const { subject, text } = JSON.parse(d.body) as { subject: string; text: string };
      result = await sendMailOnce({ smtp, message: { to: recipientsOf(d.endpoint.url), subject, text, id: d.id, event: d.event }, ...common });
    } else {
      const secret = unsealSecret(d.endpoint.secretSealed, ctx.rootKey);
      const headers = signedHeaders(secret, d.id, Math.floor(now().getTime() / 1000), d.body);
      result = await sendOnce({ url: d.endpoint.url, headers, body: d.body, ...common });
    }
  } catch (err) {
    if (!(err instanceof NotifyError)) throw err;
    // Refused before sending (a target no longer allowed, a secret that cannot be opened, an SMTP
    // setting the operator has since removed): retrying cannot help.
    await recordAttempt(prisma, d.id, d.endpoint.id, { ok: false, status: null, error: err.message, final: true }, now());
    return 'failed';
  }
  if (ctx.signal?.aborted) return 'retry'; // the worker is stopping: the attempt is not the receiver's fault
  await recordAttempt(prisma, d.id, d.endpoint.id, { ok: result.ok, status: result.status, error: result.error, final: !result.ok && final }, now());
  return result.ok ? 'delivered' : final ? 'failed' : 'retry';
}
