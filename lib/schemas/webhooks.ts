/**
 * What an admin sends to add, remove or redeliver a tenant's webhook endpoint. The URL's target
 * and the secret's strength are checked by lib/notify when saving (they need the operator's
 * settings); here only shape and size.
 */
import { z } from 'zod';

/** The events an endpoint can receive. */
export const WEBHOOK_EVENTS = ['approval.requested', 'approval.decided', 'approval.expiring', 'approval.escalated', 'approval.expired', 'run.ended'] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
/** `standard`: the JSON event; `slack`: a Slack-compatible `{ text }` message. */
export const WEBHOOK_FORMATS = ['standard', 'slack'] as const;

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

export const WebhookEndpointIdSchema = z.object({ endpointId: IdSchema });
export const WebhookDeliveryIdSchema = z.object({ deliveryId: IdSchema });
