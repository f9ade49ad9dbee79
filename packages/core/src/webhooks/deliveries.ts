import { randomUUID } from "node:crypto";
import { isoText, type Db } from "@insp/db";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";
import { badRequest, isUuid, notFound } from "../errors.ts";
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
  const rows = await sql<{ id: string; event_id: string; event_type: string; status: DeliveryView["status"]; failure_reason: string | null; created_at: string; next_attempt_at: string }[]>`
    select id, event_id, event_type, status, failure_reason, ${sql.unsafe(isoText("created_at"))} as created_at, ${sql.unsafe(isoText("next_attempt_at"))} as next_attempt_at
    from webhook_deliveries where endpoint_id = ${endpointId} and organization_id = ${organizationId}
    order by created_at desc, id desc limit ${q.limit + 1} offset ${q.offset}`;
  const page = rows.slice(0, q.limit);
  const attempts = page.length
    ? await sql<{ delivery_id: string; attempt: number; status_code: number | null; duration_ms: number; response: string | null; error: string | null; at: string }[]>`
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

/** Most events one replay sends (a `since` further back needs several replays). */
export const REPLAY_MAX = 1000;

/**
 * Sends past events to the endpoint again, as new deliveries with the events' own ids (so
 * receivers that deduplicate on webhook-id recognize them): one event by id, or every event of
 * the endpoint's types since an instant, oldest first, at most 1,000. The body is the one first
 * sent for the event when there is one, else rendered now. Needs the endpoint enabled. An event
 * of a type the endpoint does not receive is not sent to it; one already waiting to be
 * delivered there (a replay not yet done, a retry scheduled) is not queued again, so calling
 * replay repeatedly cannot pile up deliveries. Only for an actor who may manage the endpoint
 * (loadEndpoint): a replay sends the events again.
 */
export async function replayEvents(
  db: Db,
  organizationId: string,
  endpointId: string,
  q: { eventId: string } | { since: string },
  actor: EndpointActor,
): Promise<{ deliveries: { id: string; organizationId: string }[]; hasMore: boolean }> {
  const endpoint = await loadEndpoint(db, organizationId, endpointId, actor);
  if (!endpoint.enabled) throw badRequest("The endpoint is disabled: enable it first (PATCH enabled: true)");
  const sql = db.$client;
  type Ev = { id: string; resource_type: ResourceType; resource_id: string; change: string; at: string; payload: string | null; pending: boolean };
  const select = (where: ReturnType<typeof sql>) => sql<Ev[]>`
    select c.id, c.resource_type, c.resource_id, c.change, ${sql.unsafe(isoText("c.created_at"))} as at,
      (select d.payload from webhook_deliveries d where d.organization_id = c.organization_id and d.event_id = c.id limit 1) as payload,
      exists (select 1 from webhook_deliveries p
        where p.organization_id = ${organizationId} and p.endpoint_id = ${endpointId} and p.event_id = c.id and p.status = 'pending') as pending
    from change_events c where c.organization_id = ${organizationId} and ${where}
    order by c.created_at, c.seq limit ${REPLAY_MAX + 1}`;
  let events: Ev[];
  if ("eventId" in q) {
    if (!isUuid(q.eventId)) throw notFound("Event not found");
    events = await select(sql`c.id = ${q.eventId}::uuid`);
    if (!events.length) throw notFound("Event not found");
  } else {
    events = await select(sql`c.created_at >= ${q.since}::timestamptz`);
  }
  const hasMore = events.length > REPLAY_MAX;
  const typed = events.slice(0, REPLAY_MAX).flatMap((e) => {
    const type = eventTypeOf(e.resource_type, e.change);
    return type && endpoint.events.includes(type) ? [{ e, type }] : [];
  });
  if ("eventId" in q && !typed.length) throw badRequest("The event's type is not one the endpoint receives");
  const rows = [];
  for (const { e, type } of typed.filter((x) => !x.e.pending)) {
    const payload = e.payload ?? webhookBody({ id: e.id, type, at: e.at, organizationId }, (await loadResources(db, organizationId, e.resource_type, [e.resource_id])).get(e.resource_id));
    rows.push({ id: randomUUID(), organization_id: organizationId, endpoint_id: endpointId, event_id: e.id, event_type: type, payload });
  }
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    await sql`insert into webhook_deliveries ${sql(part, "id", "organization_id", "endpoint_id", "event_id", "event_type", "payload")}`;
  }
  return { deliveries: rows.map((r) => ({ id: r.id, organizationId })), hasMore };
}

