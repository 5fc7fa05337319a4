/**
 * `npm run bench -- --only notify`: webhook notifications on a throwaway PostgreSQL cluster with two
 * real worker processes and a receiver on 127.0.0.1. Figures: from the moment a governed run's start
 * returns paused (its request stored, its delivery enqueued) to the signed `approval.requested`
 * arriving at the receiver; and a run's start-to-pause time with no webhook and with one (recording
 * deliveries must not slow the request). The same for an email notification, to a local SMTP server
 * (smtp-server on 127.0.0.1): request stored → message received. BENCH_NOTIFY_TRIALS trials each (default 10).
 */
import { keepWorkers, setUpDrill, type Drill } from '../lib/jobs/testing/approval-drills';
import { startReceiver, verifyStandardWebhook, type Receiver } from '../lib/notify/testing/receiver';
import { startSmtpReceiver, type SmtpReceiver } from '../lib/notify/testing/smtp-receiver';
import { percentile, round, type Figure } from './stats';
import { caseNeedingApproval } from './golden';

const SECRET = 'the bench webhook secret, 32 bytes long';

async function startPaused(d: Drill, notify: boolean): Promise<{ ms: number; approvalId: string; returnedAt: number }> {
  const { startGovernedOne } = await import('../lib/runs/governed-start');
  const { RunOneInputSchema } = await import('../lib/schemas/run-settings');
  const { deliveryQueueOf, getJobQueue } = await import('../lib/jobs/queue');
  const t0 = Date.now();
  const out = await startGovernedOne(RunOneInputSchema.parse({ datasetId: 'bundled', caseId: caseNeedingApproval() }), { id: d.users.operator, tenant: 'kittiwake' }, notify ? deliveryQueueOf(getJobQueue()) : undefined);
  const returnedAt = Date.now();
  if (!out.approvalId) throw new Error('the governed run did not pause');
  return { ms: returnedAt - t0, approvalId: out.approvalId, returnedAt };
}

async function arrival(r: Receiver, approvalId: string, limitMs = 120_000): Promise<number> {
  const end = Date.now() + limitMs;
  for (;;) {
    const hit = r.received.find((x) => (verifyStandardWebhook(SECRET, x) as { data: { requestId: string } }).data.requestId === approvalId);
    if (hit) return hit.at;
    if (Date.now() > end) throw new Error(`no webhook for ${approvalId} within ${limitMs} ms`);
    await new Promise((res) => setTimeout(res, 10));
  }
}

async function mailArrival(smtp: SmtpReceiver, approvalId: string, limitMs = 120_000): Promise<number> {
  const end = Date.now() + limitMs;
  for (;;) {
    const hit = smtp.received.find((m) => m.text.includes(`/approvals/${approvalId}`));
    if (hit) return hit.at;
    if (Date.now() > end) throw new Error(`no email for ${approvalId} within ${limitMs} ms`);
    await new Promise((res) => setTimeout(res, 10));
  }
}

export async function benchNotify(): Promise<Figure[]> {
  const trials = Number(process.env.BENCH_NOTIFY_TRIALS ?? 10);
  process.env.STOCKROOM_WEBHOOK_ALLOW_PRIVATE = 'true';
  process.env.STOCKROOM_EVIDENCE_KEY ??= 'a bench evidence key of at least 32 characters';
  const d = await setUpDrill();
  const receiver = await startReceiver();
  const smtp = await startSmtpReceiver();
  try {
    await keepWorkers(d, 2);
    const off: number[] = [];
    for (let i = 0; i < trials; i++) off.push((await startPaused(d, false)).ms);
    const { getDb } = await import('../lib/db/core/client');
    const { createWebhookEndpoint } = await import('../lib/db/auth/webhooks');
    const { checkEndpointSettings } = await import('../lib/notify');
    const { loadEvidenceKey } = await import('../lib/governance/evidence-key');
    const checked = checkEndpointSettings({ url: receiver.url, secret: SECRET }, loadEvidenceKey());
    await createWebhookEndpoint(getDb().prisma, { tenant: 'kittiwake', url: checked.url, format: 'standard', events: ['approval.requested'], role: 'reviewer', secretSealed: checked.sealed, createdBy: d.users.operator });
    await arrival(receiver, (await startPaused(d, true)).approvalId); // warm the workers' first delivery
    const on: number[] = [];
    const delivered: number[] = [];
    for (let i = 0; i < trials; i++) {
      const t = await startPaused(d, true);
      on.push(t.ms);
      delivered.push((await arrival(receiver, t.approvalId)) - t.returnedAt);
    }
    // Email: the webhook endpoint removed, one email endpoint naming the local SMTP server itself.
    const { checkEmailSettings } = await import('../lib/notify');
    await getDb().prisma.webhookEndpoint.deleteMany({ where: { tenant: 'kittiwake' } });
    const email = checkEmailSettings({ recipients: 'reviewers@example.test', smtpHost: smtp.host, smtpPort: smtp.port, smtpFrom: 'stockroom@example.test' }, loadEvidenceKey());
    await createWebhookEndpoint(getDb().prisma, { tenant: 'kittiwake', url: email.url, format: 'email', events: ['approval.requested'], role: 'reviewer', secretSealed: email.sealed, smtp: email.smtp, createdBy: d.users.operator });
    await mailArrival(smtp, (await startPaused(d, true)).approvalId); // warm the first email
    const onMail: number[] = [];
    const mailed: number[] = [];
    for (let i = 0; i < trials; i++) {
      const t = await startPaused(d, true);
      onMail.push(t.ms);
      mailed.push((await mailArrival(smtp, t.approvalId)) - t.returnedAt);
    }
    return [
      { name: `request stored → email received, p50 (${trials} trials, 2 workers, local SMTP)`, value: round(percentile(mailed, 50) / 1000, 3), unit: 's' },
      { name: `request stored → email received, p95 (${trials} trials, 2 workers, local SMTP)`, value: round(percentile(mailed, 95) / 1000, 3), unit: 's', target: '≤ 2' },
      { name: `governed start → paused, one email endpoint, p50 (${trials})`, value: round(percentile(onMail, 50) / 1000, 3), unit: 's', target: 'same as without' },
      { name: `request stored → webhook received, p50 (${trials} trials, 2 workers)`, value: round(percentile(delivered, 50) / 1000, 3), unit: 's' },
      { name: `request stored → webhook received, p95 (${trials} trials, 2 workers)`, value: round(percentile(delivered, 95) / 1000, 3), unit: 's', target: '≤ 2' },
      { name: `governed start → paused, no webhook, p50 (${trials})`, value: round(percentile(off, 50) / 1000, 3), unit: 's' },
      { name: `governed start → paused, one webhook, p50 (${trials})`, value: round(percentile(on, 50) / 1000, 3), unit: 's', target: 'same as without' },
    ];
  } finally {
    await smtp.close();
    await receiver.close();
    await d.close();
  }
}
