import { WEBHOOK_EVENTS, type ApiKeyScope } from "@insp/contracts";
import type { Principal } from "../auth/credentials.ts";
import { forbidden } from "../errors.ts";

/** Webhook event types (the contract's list), and the change-log rows they come from (resource type, change). */
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export function eventTypeOf(resourceType: string, change: string): WebhookEventType | null {
  const type = resourceType === "sync_request" ? `sync.request.${change}` : `${resourceType}.${change}`;
  return (WEBHOOK_EVENTS as readonly string[]).includes(type) ? (type as WebhookEventType) : null;
}

/**
 * What a credential must be able to read to register for an event type: an endpoint receives the
 * resource itself, so registering for its events is reading it (action.* carry corrective
 * actions: actions:read). employee.* carry employee records, which only OAuth clients with
 * employees:sync and API keys with employees:read may read (users have no employee endpoints);
 * sync.request.* carry counts only.
 */
const READ_SCOPE: Record<string, ApiKeyScope | null> = { template: "templates:read", inspection: "inspections:read", action: "actions:read", employee: "employees:read", sync: null };

/** Throws 403 naming the first event type the credential may not receive. */
export function assertMayReceive(p: Principal, events: readonly WebhookEventType[]): void {
  for (const event of events) {
    const scope = READ_SCOPE[event.split(".")[0]!] ?? null;
    if (!scope) continue;
    if (p.kind === "apiKey" && !p.scopes.includes(scope)) throw forbidden(`API key lacks the scope ${scope}, which ${event} events need: they carry the ${event.split(".")[0]} itself`);
    if (p.kind === "user" && scope === "employees:read") throw forbidden(`${event} events carry employee records, which only an API key with the scope employees:read may receive`);
  }
}
