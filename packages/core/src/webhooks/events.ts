import { WEBHOOK_EVENTS, type ApiKeyScope } from "@insp/contracts";
import type { Principal } from "../auth/credentials.ts";
import { forbidden } from "../errors.ts";

/** Webhook event types: the contract's list (WEBHOOK_EVENTS), and the change-log rows they come from (resource type, change). */
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
 * api_key.* and oauth_client.* carry credentials (never a secret): credentials:manage, or an admin
 * user (only admins manage webhooks); user.* carry users (never a password): users:manage, or an
 * admin user; sync.request.* carry counts only. site.*, group.*, role.*, response_type.*,
 * asset_type.* and asset.* carry the directory row (directory:read; every user may read the directory).
 * schedule.* and occurrence.* carry the schedule or occurrence (schedules:read).
 */
const READ_SCOPE: Record<string, ApiKeyScope | null> = {
  template: "templates:read",
  inspection: "inspections:read",
  action: "actions:read",
  employee: "employees:read",
  api_key: "credentials:manage",
  oauth_client: "credentials:manage",
  user: "users:manage",
  site: "directory:read",
  group: "directory:read",
  role: "directory:read",
  response_type: "directory:read",
  asset_type: "directory:read",
  asset: "directory:read",
  schedule: "schedules:read",
  occurrence: "schedules:read",
  sync: null,
};

/**
 * Why `p` may not receive `event`, as the 403's message, or null when it may. `own` words it for
 * an endpoint that already exists (its events) rather than for events being registered.
 */
function refusal(p: Principal, event: WebhookEventType, own: boolean): string | null {
  const resource = event.split(".")[0]!;
  const scope = READ_SCOPE[resource] ?? null;
  if (!scope) return null;
  const events = own ? `this endpoint's ${event} events` : `${event} events`;
  if (p.kind === "apiKey" && !p.scopes.includes(scope)) return `API key lacks the scope ${scope}, which ${events} need: they carry the ${resource} itself`;
  if (p.kind === "user" && scope === "employees:read")
    return `${own ? "This endpoint's " : ""}${event} events carry employee records, which only an API key with the scope employees:read may receive`;
  return null;
}

/** Throws 403 naming the first event type the credential may not receive. */
export function assertMayReceive(p: Principal, events: readonly WebhookEventType[]): void {
  for (const event of events) {
    const message = refusal(p, event, false);
    if (message) throw forbidden(message);
  }
}

/**
 * Who acts on an existing endpoint: a credential, or the operator's admin CLI, which is not
 * limited (as when it creates one).
 */
export type EndpointActor = Principal | "admin_cli";

/**
 * Why `actor` may not act on an endpoint receiving `events`, or null. Acting on an endpoint
 * (changing its url or anything else, rotating its secret, reading it or its deliveries,
 * replaying, deleting) is as good as receiving its events: a new url or a known secret gets the
 * next ones, and the delivery log shows what the receiver answered. So it needs the right to
 * receive every one of them, the same rule as registering.
 */
export function whyMayNotManage(actor: EndpointActor, events: readonly WebhookEventType[]): string | null {
  if (actor === "admin_cli") return null;
  for (const event of events) {
    const message = refusal(actor, event, true);
    if (message) return message;
  }
  return null;
}

/** Throws 403 naming the first of the endpoint's event types the actor may not receive. */
export function assertMayManage(actor: EndpointActor, events: readonly WebhookEventType[]): void {
  const message = whyMayNotManage(actor, events);
  if (message) throw forbidden(message);
}
