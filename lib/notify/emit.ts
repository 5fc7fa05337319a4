/**
 * Turns an event into deliveries: one row per endpoint of the tenant that receives it (recorded
 * once per endpoint and event key), then one job each. Only rows are written here — no request
 * waits on a receiver; the `webhook` job sends.
 */
import type { Prisma } from '../db/core';
import { endpointsForEvent, recordDeliveries } from '../db/auth';
import { bodyFor, type EventData, type NotificationFormat, type WebhookEvent } from './events';

/** Where deliveries go to be sent (lib/jobs implements it: one `webhook` job per delivery). */
export interface DeliveryQueue {
  enqueueDeliveries(ids: readonly string[]): Promise<void>;
}

export interface EventToEmit {
  type: WebhookEvent;
  /** What the event is about (a request id, a run id): with the type, the event's key. */
  subject: string;
  data: EventData;
  /** The reviewers' role it is for (null: every endpoint of the tenant). */
  audience: string | null;
  at: Date;
}

/** Records the event's deliveries and enqueues them; returns the ids of new deliveries. */
export async function emitEvent(prisma: Prisma, queue: DeliveryQueue, e: EventToEmit): Promise<string[]> {
  const endpoints = await endpointsForEvent(prisma, e.data.tenant, e.type, e.audience);
  if (endpoints.length === 0) return [];
  const eventKey = `${e.type}:${e.subject}`;
  const ids = await recordDeliveries(
    prisma,
    endpoints.map((ep) => ({ endpointId: ep.id, tenant: e.data.tenant, event: e.type, eventKey, body: bodyFor(ep.format as NotificationFormat, e.type, e.data, e.at) })),
  );
  if (ids.length > 0) await queue.enqueueDeliveries(ids);
  return ids;
}
