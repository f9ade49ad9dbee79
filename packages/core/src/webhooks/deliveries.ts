import { randomUUID } from "node:crypto";
import { isoText, type Db } from "@insp/db";
import type { WebhookEndpointRow } from "@insp/db/schema";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";
import { AppError, badRequest, isUuid, notFound } from "../errors.ts";
import { loadEndpoint } from "./endpoints.ts";
import { eventTypeOf, type EndpointActor } from "./events.ts";
import { webhookBody } from "./dispatch.ts";
import { loadResources } from "../feeds/index.ts";
import type { ResourceType } from "../changes/index.ts";

/**
 * Pending deliveries due more than `lateSeconds` ago whose job is gone (Redis lost it, the
 * process died between commit and enqueue) get it back; a live job is left alone.
 */
export async function requeueStaleDeliveries(db: Db, queues: Queues, lateSeconds: number, page = 1000): Promise<number> {
  const sql = db.$client;
  return requeuePaged(
    queues,
    "webhook",
    (after) => sql<{ id: string; organization_id: string; attempts: number }[]>`
      select id, organization_id, attempts from webhook_deliveries
      where status = 'pending' and next_attempt_at < now() - make_interval(secs => ${lateSeconds}) ${after ? sql`and id > ${after}` : sql``}
      order by id limit ${page}`,
    (r) => ({ jobId: jobIds.webhook(r.id, r.attempts), data: { organizationId: r.organization_id, deliveryId: r.id, attempt: r.attempts } }),
    page,
  );
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed";
  /** Why it failed for good; null unless failed. */
  failureReason: string | null;
  createdAt: string;
  /** When the next attempt is due; null once succeeded or failed. */
  nextAttemptAt: string | null;
  attempts: { attempt: number; statusCode: number | null; durationMs: number; response: string | null; error: string | null; at: string }[];
}

/** The endpoint's deliveries, newest first, each with every attempt (oldest first); for an actor who may manage it (loadEndpoint). */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  endpointId: string,
  q: { limit: number; offset: number },
  actor: EndpointActor,
): Promise<{ deliveries: DeliveryView[]; pagination: { limit: number; offset: number; hasMore: boolean } }> {
  await loadEndpoint(db, organizationId, endpointId, actor);
  const sql = db.$client;
  const rows = await sql<
    {
      id: string;
      event_id: string;
      event_type: string;
      status: DeliveryView["status"];
      failure_reason: string | null;
      created_at: string;
      next_attempt_at: string;
    }[]
  >`
    select id, event_id, event_type, status, failure_reason, ${sql.unsafe(isoText("created_at"))} as created_at, ${sql.unsafe(isoText("next_attempt_at"))} as next_attempt_at
    from webhook_deliveries where endpoint_id = ${endpointId} and organization_id = ${organizationId}
    order by created_at desc, id desc limit ${q.limit + 1} offset ${q.offset}`;
  const page = rows.slice(0, q.limit);
  const attempts = page.length
    ? await sql<
        { delivery_id: string; attempt: number; status_code: number | null; duration_ms: number; response: string | null; error: string | null; at: string }[]
      >`
        select delivery_id, attempt, status_code, duration_ms, response, error, ${sql.unsafe(isoText("created_at"))} as at
        from webhook_attempts where organization_id = ${organizationId} and delivery_id = any(${page.map((r) => r.id)}::uuid[])
        order by delivery_id, attempt`
    : [];
  return {
    deliveries: page.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      eventType: r.event_type,
      status: r.status,
      failureReason: r.failure_reason,
      createdAt: r.created_at,
      nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null,
      attempts: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({ attempt: a.attempt, statusCode: a.status_code, durationMs: a.duration_ms, response: a.response, error: a.error, at: a.at })),
    })),
    pagination: { limit: q.limit, offset: q.offset, hasMore: rows.length > q.limit },
  };
}

/** One event again (`eventId`), or every event of the endpoint's types from `since` on and, with `until`, before then. */
export type ReplayQuery = { eventId: string } | { since: string; until?: string };

type ReplayEvent = { id: string; resource_type: ResourceType; resource_id: string; change: string; at: string };

/** Deliveries written per statement, and events whose bodies are rendered at a time. */
const REPLAY_PAGE = 500;

/**
/**
 * POST /api/webhooks/{id}/replay: new deliveries of past events to one endpoint, with their
 * original ids (so receivers that deduplicate on webhook-id recognize them). Only types the
 * endpoint receives; an event still waiting to be delivered there (a replay not yet done, a retry
 * scheduled) is not queued again, so calling replay repeatedly cannot pile up deliveries. A window
 * whose deliveries would pass `maxDeliveries` (WEBHOOK_REPLAY_MAX_DELIVERIES) creates none: 422
 * with an `until` that keeps it within the limit, read from the first events over it, so a client
 * replays a long past window by window. Only for an actor who may manage the endpoint
 * (loadEndpoint): a replay sends the events again.
 */
export async function replayEvents(
  db: Db,
  organizationId: string,
  endpointId: string,
  q: ReplayQuery,
  actor: EndpointActor,
  maxDeliveries: number,
): Promise<{ deliveries: { id: string; organizationId: string }[]; hasMore: boolean }> {
  const endpoint = await loadEndpoint(db, organizationId, endpointId, actor);
  if (!endpoint.enabled) throw badRequest("The endpoint is disabled: enable it first (PATCH enabled: true)");
  const events =
    "eventId" in q ? await oneEvent(db, organizationId, endpoint, q.eventId) : await windowEvents(db, organizationId, endpoint, q, maxDeliveries + 1);
  if (events.length > maxDeliveries) {
    const until = events[maxDeliveries]!.at;
    throw new AppError(
      "over_limit",
      `This replay would create more than ${maxDeliveries} deliveries (WEBHOOK_REPLAY_MAX_DELIVERIES) and created none; replay a shorter window: until ${until} first, then since ${until}`,
      undefined,
      { limit: maxDeliveries, until },
    );
  }
  const sql = db.$client;
  const created: { id: string; organizationId: string }[] = [];
  for (let i = 0; i < events.length; i += REPLAY_PAGE) {
    const rows = await deliveryRows(db, organizationId, endpointId, events.slice(i, i + REPLAY_PAGE));
    await sql`insert into webhook_deliveries ${sql(rows, "id", "organization_id", "endpoint_id", "event_id", "event_type", "payload")}`;
    created.push(...rows.map((r) => ({ id: r.id, organizationId })));
  }
  return { deliveries: created, hasMore: false };
}

/** The event `eventId` when the endpoint receives its type and no delivery of it waits there; 404 or 400 otherwise. */
async function oneEvent(db: Db, organizationId: string, endpoint: WebhookEndpointRow, eventId: string): Promise<ReplayEvent[]> {
  if (!isUuid(eventId)) throw notFound("Event not found");
  const sql = db.$client;
  const [e] = await sql<(ReplayEvent & { pending: boolean })[]>`
    select c.id, c.resource_type, c.resource_id, c.change, ${sql.unsafe(isoText("c.created_at"))} as at,
      exists (select 1 from webhook_deliveries p
        where p.organization_id = ${organizationId} and p.endpoint_id = ${endpoint.id} and p.event_id = c.id and p.status = 'pending') as pending
    from change_events c where c.organization_id = ${organizationId} and c.id = ${eventId}::uuid`;
  if (!e) throw notFound("Event not found");
  const type = eventTypeOf(e.resource_type, e.change);
  if (!type || !endpoint.events.includes(type)) throw badRequest("The event's type is not one the endpoint receives");
  return e.pending ? [] : [e];
}

/**
 * The window's events of the endpoint's types with no delivery waiting there, oldest first, at
 * most `limit`. The type test in SQL is eventTypeOf's: `sync.request.<change>` for sync requests,
 * `<resource>.<change>` otherwise, among the endpoint's types.
 */
async function windowEvents(
  db: Db,
  organizationId: string,
  endpoint: WebhookEndpointRow,
  q: { since: string; until?: string },
  limit: number,
): Promise<ReplayEvent[]> {
  const sql = db.$client;
  return sql<ReplayEvent[]>`
    select c.id, c.resource_type, c.resource_id, c.change, ${sql.unsafe(isoText("c.created_at"))} as at
    from change_events c
    where c.organization_id = ${organizationId} and c.created_at >= ${q.since}::timestamptz
      ${q.until === undefined ? sql`` : sql`and c.created_at < ${q.until}::timestamptz`}
      and (case when c.resource_type = 'sync_request' then 'sync.request.' || c.change else c.resource_type || '.' || c.change end) = any(${endpoint.events}::text[])
      and not exists (select 1 from webhook_deliveries p
        where p.organization_id = ${organizationId} and p.endpoint_id = ${endpoint.id} and p.event_id = c.id and p.status = 'pending')
    order by c.created_at, c.seq limit ${limit}`;
}

/**
 * The delivery rows of a page of events: each event's body as it was first sent (any earlier
 * delivery of it), else rendered from the resource as it is now, loaded once per resource type.
 */
async function deliveryRows(db: Db, organizationId: string, endpointId: string, events: ReplayEvent[]) {
  const sql = db.$client;
  const sent = await sql<{ event_id: string; payload: string }[]>`
    select distinct on (event_id) event_id, payload from webhook_deliveries
    where organization_id = ${organizationId} and event_id = any(${events.map((e) => e.id)}::uuid[])`;
  const payloads = new Map(sent.map((r) => [r.event_id, r.payload]));
  const unsent = events.filter((e) => !payloads.has(e.id));
  const resources = new Map<string, Map<string, unknown>>();
  for (const type of new Set(unsent.map((e) => e.resource_type))) {
    resources.set(
      type,
      await loadResources(
        db,
        organizationId,
        type,
        unsent.filter((e) => e.resource_type === type).map((e) => e.resource_id),
      ),
    );
  }
  return events.map((e) => {
    const type = eventTypeOf(e.resource_type, e.change)!;
    const payload =
      payloads.get(e.id) ??
      webhookBody({ id: e.id, type, at: e.at, organizationId, resourceId: e.resource_id }, resources.get(e.resource_type)?.get(e.resource_id));
    return { id: randomUUID(), organization_id: organizationId, endpoint_id: endpointId, event_id: e.id, event_type: type, payload };
  });
}
