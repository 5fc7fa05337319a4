/**
 * What an admin sends to add, remove or redeliver a tenant's webhook endpoint. The URL's target
 * and the secret's strength are checked by lib/notify when saving (they need the operator's
 * settings); here only shape and size.
 */
import { z } from 'zod';

/** The events an endpoint can receive. */
export const WEBHOOK_EVENTS = ['approval.requested', 'approval.decided', 'approval.expiring', 'approval.escalated', 'approval.expired', 'run.ended', 'alert.fired'] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
/** `standard`: the JSON event; `slack`: a Slack-compatible `{ text }` message. */
export const WEBHOOK_FORMATS = ['standard', 'slack'] as const;
/** Every way an endpoint is reached: a webhook's formats, or `email` over SMTP. */
export const NOTIFICATION_FORMATS = [...WEBHOOK_FORMATS, 'email'] as const;

const IdSchema = z.string().trim().min(1).max(80).regex(/^[A-Za-z0-9_-]+$/, 'not an id');

export const WebhookEndpointInputSchema = z.object({
  url: z.string().trim().min(1, 'enter the URL to send to').max(2000),
  /** Empty: one is generated and shown once. */
  secret: z.string().max(200).optional().transform((s) => (s && s.trim() !== '' ? s.trim() : undefined)),
  format: z.enum(WEBHOOK_FORMATS).default('standard'),
  events: z.array(WebhookEventSchema).min(1, 'choose at least one event').max(WEBHOOK_EVENTS.length).transform((e) => [...new Set(e)]),
  /** The reviewers it reaches: approval events of requests for that role, escalations to it. */
  role: z.enum(['reviewer', 'admin']).default('reviewer'),
});
export type WebhookEndpointInput = z.output<typeof WebhookEndpointInputSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((s) => (s && s.trim() !== '' ? s.trim() : undefined));

/**
 * An email notification: who receives it, and the SMTP settings the endpoint sets itself (each one
 * left empty comes from the operator's STOCKROOM_SMTP_* variables; lib/notify refuses a setting
 * missing from both, naming the field). The password is kept only sealed.
 */
export const EmailEndpointInputSchema = z.object({
  /** Addresses separated by commas, semicolons or new lines. */
  recipients: z.string().trim().min(1, 'enter at least one address').max(2000),
  smtpHost: optionalText(253),
  smtpPort: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 65_535) {
        ctx.addIssue({ code: 'custom', message: 'a port from 1 to 65535' });
        return z.NEVER;
      }
      return n;
    }),
  /** `true`: TLS from the first byte (port 465); `false`: STARTTLS when the server offers it; absent: the operator's. */
  smtpSecure: z.boolean().optional(),
  smtpFrom: optionalText(320),
  smtpUser: optionalText(320),
  smtpPassword: optionalText(500),
  events: z.array(WebhookEventSchema).min(1, 'choose at least one event').max(WEBHOOK_EVENTS.length).transform((e) => [...new Set(e)]),
  role: z.enum(['reviewer', 'admin']).default('reviewer'),
});
export type EmailEndpointInput = z.output<typeof EmailEndpointInputSchema>;

export const WebhookEndpointIdSchema = z.object({ endpointId: IdSchema });
export const WebhookDeliveryIdSchema = z.object({ deliveryId: IdSchema });
