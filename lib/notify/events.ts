/**
 * The events a tenant's webhooks and email notifications receive and the bodies sent for them. A body carries what a
 * reviewer needs to decide whether to look (what, which rule, how long is left) and a link to the
 * request, which still needs a sign-in: no link approves anything. It never carries the call's
 * arguments, the run's answer or any secret; those stay behind the sign-in.
 */
import { NOTIFICATION_FORMATS, WEBHOOK_EVENTS, WEBHOOK_FORMATS, WebhookEventSchema } from '../schemas/webhooks';

export { NOTIFICATION_FORMATS, WEBHOOK_EVENTS, WEBHOOK_FORMATS, WebhookEventSchema };
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
/** A webhook's format, or `email`. */
export type NotificationFormat = (typeof NOTIFICATION_FORMATS)[number];

/** What an event says, before it is shaped for an endpoint's format. */
export interface EventData {
  tenant: string;
  runId: string;
  /** The approval request (null for run.ended). */
  requestId: string | null;
  tool: string | null;
  rule: string | null;
  /** The rule's own message (policy text, never the model's or a tool's). */
  message: string | null;
  approverRole: string | null;
  quorum: number | null;
  approvals: number | null;
  status: string;
  expiresAt: string | null;
  /** approval.decided: the last verdict. */
  verdict: 'approve' | 'deny' | null;
  /** run.ended: how the run ended. */
  terminationReason: string | null;
  /** approval.escalated: the role it now reaches. */
  escalatedTo: string | null;
  /** The page to open (sign-in required). */
  link: string;
  /** alert.fired: the rule, its breach window and the figure against its threshold (issue 37). */
  alert?: { rule: string; kind: string; window: string; value: number; threshold: number };
}

/** The JSON body of a `standard` endpoint. */
export function standardBody(type: WebhookEvent, data: EventData, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

const minutesLeft = (expiresAt: string | null, at: Date) => (expiresAt ? Math.max(0, Math.round((Date.parse(expiresAt) - at.getTime()) / 60_000)) : null);

/** One line for people: what a Slack-compatible endpoint shows. */
export function eventText(type: WebhookEvent, d: EventData, at: Date): string {
  const what = d.tool ? `${d.tool} (rule ${d.rule})` : `run ${d.runId}`;
  const left = minutesLeft(d.expiresAt, at);
  const progress = d.quorum !== null ? ` ${d.approvals ?? 0} of ${d.quorum} approvals.` : '';
  switch (type) {
    case 'approval.requested':
      return `Approval needed in ${d.tenant}: ${what} — ${d.message ?? ''}.${progress} ${left ?? '?'} min left. ${d.link}`;
    case 'approval.expiring':
      return `Expiring soon in ${d.tenant}: ${what}, ${left ?? '?'} min left.${progress} ${d.link}`;
    case 'approval.escalated':
      return `Escalated to ${d.escalatedTo ?? 'another group'} in ${d.tenant}: ${what} is still waiting, ${left ?? '?'} min left.${progress} ${d.link}`;
    case 'approval.decided':
      return `Decided in ${d.tenant}: ${what} ${d.status} (${d.verdict === 'deny' ? 'denied' : 'approved'}). ${d.link}`;
    case 'approval.expired':
      return `Expired in ${d.tenant}: ${what} was not decided in time; the run was refused the call. ${d.link}`;
    case 'run.ended':
      return `Run ended ${d.terminationReason ?? d.status} in ${d.tenant}: ${d.runId}. ${d.link}`;
    case 'alert.fired':
      return `Alert ${d.alert?.rule ?? d.rule ?? ''} in ${d.tenant}: ${d.message ?? ''} ${d.link}`;
  }
}

const SUBJECTS: Record<WebhookEvent, (d: EventData) => string> = {
  'approval.requested': (d) => `Approval needed: ${d.tool} in ${d.tenant}`,
  'approval.expiring': (d) => `Expiring soon: ${d.tool} in ${d.tenant}`,
  'approval.escalated': (d) => `Escalated to ${d.escalatedTo ?? 'you'}: ${d.tool} in ${d.tenant}`,
  'approval.decided': (d) => `Decided (${d.status}): ${d.tool} in ${d.tenant}`,
  'approval.expired': (d) => `Expired: ${d.tool} in ${d.tenant}`,
  'run.ended': (d) => `Run ended ${d.terminationReason ?? d.status} in ${d.tenant}`,
  'alert.fired': (d) => `Alert ${d.alert?.rule ?? ''} in ${d.tenant}`,
};

/** An email's subject and text (stored as the delivery's body, JSON): the same facts and link as the webhook, nothing more. */
export function emailBody(type: WebhookEvent, data: EventData, at: Date): string {
  const text = [
    eventText(type, data, at),
    '',
    `Open it: ${data.link}`,
    'The page asks you to sign in; the link itself approves or denies nothing — decide on the request page.',
    '',
    `Sent by the Stockroom dashboard for tenant ${data.tenant} (event ${type}).`,
  ].join('\n');
  return JSON.stringify({ subject: SUBJECTS[type](data).replace(/[\r\n]+/g, ' ').slice(0, 200), text });
}

/** The body for an endpoint's format. */
export function bodyFor(format: NotificationFormat, type: WebhookEvent, data: EventData, at: Date): string {
  if (format === 'email') return emailBody(type, data, at);
  return format === 'slack' ? JSON.stringify({ text: eventText(type, data, at) }) : standardBody(type, data, at);
}
