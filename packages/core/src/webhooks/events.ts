import { WEBHOOK_EVENTS } from "@insp/contracts";

/** Webhook event types (the contract's list), and the change-log rows they come from (resource type, change). */
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export function eventTypeOf(resourceType: string, change: string): WebhookEventType | null {
  const type = resourceType === "sync_request" ? `sync.request.${change}` : `${resourceType}.${change}`;
  return (WEBHOOK_EVENTS as readonly string[]).includes(type) ? (type as WebhookEventType) : null;
}
