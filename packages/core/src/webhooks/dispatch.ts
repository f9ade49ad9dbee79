import { randomUUID } from "node:crypto";
import { CHANGE_HORIZON, isoText, type Db } from "@insp/db";
import type { ResourceType } from "../changes/index.ts";
import { loadResources } from "../feeds/index.ts";
import { eventTypeOf } from "./events.ts";

export interface NewDelivery {
  id: string;
  organizationId: string;
}

interface EventRow {
  seq: string;
  xid: string;
  id: string;
  organization_id: string;
  resource_type: ResourceType;
  resource_id: string;
  change: string;
  at: string;
  at_us: number;
}

/** The webhook body (Standard Webhooks' recommended shape): the event and the resource as it is when dispatched. */
export function webhookBody(e: { id: string; type: string; at: string; organizationId: string; resourceId?: string }, data: unknown): string {
  // A resource gone by the time the event is dispatched (a *.deleted event, or an earlier event of a
  // row deleted since): the event still says which one it was.
  const gone = e.resourceId ? { id: e.resourceId } : null;
  return JSON.stringify({ id: e.id, type: e.type, timestamp: e.at, organizationId: e.organizationId, data: data ?? gone });
}

/**
 * The change log's outbox side: reads changes after the dispatcher's position (in (xid, seq)
 * order, only those whose transaction ended before every running one began, like the feeds: a
 * late commit is never passed over), and for each enabled endpoint subscribed to the event's
 * type (and created before the change) writes a delivery with the body rendered once. The
 * deliveries and the new position commit together, and only if no other worker moved the
 * position meanwhile (compare-and-set), so every event is fanned out exactly once whatever the
 * number of worker replicas. Returns the new deliveries, for the caller to enqueue.
 */
export async function dispatchWebhookEvents(db: Db, limit = 500): Promise<{ deliveries: NewDelivery[]; events: number }> {
  const sql = db.$client;
  const [pos] = await sql<{ xid: string; seq: string; endpoints: boolean }[]>`
    select xid::text as xid, seq::text as seq, exists (select 1 from webhook_endpoints where enabled) as endpoints from webhook_dispatch where id = 1`;
  if (!pos) return { deliveries: [], events: 0 };
  if (!pos.endpoints) {
    // No endpoint anywhere: move past every final change without reading them.
    await sql`update webhook_dispatch w set xid = c.xid, seq = c.seq
      from (select xid, seq from change_events where xid < ${sql.unsafe(CHANGE_HORIZON)} order by xid desc, seq desc limit 1) c
      where w.id = 1 and (c.xid, c.seq) > (w.xid, w.seq)`;
    return { deliveries: [], events: 0 };
  }
  // Ordered by the columns, not by the text aliases (as text, transaction 1000 sorts before 999).
  const events = await sql<EventRow[]>`
    select seq::text as seq, xid::text as xid, id, organization_id, resource_type, resource_id, change,
      ${sql.unsafe(isoText("created_at"))} as at, (extract(epoch from created_at) * 1000000)::float8 as at_us
    from change_events
    where (xid, seq) > (${pos.xid}::xid8, ${pos.seq}::bigint) and xid < ${sql.unsafe(CHANGE_HORIZON)}
    order by change_events.xid, change_events.seq
    limit ${limit}`;
  if (!events.length) return { deliveries: [], events: 0 };
  const orgs = [...new Set(events.map((e) => e.organization_id))];
  // Timestamps as epoch microseconds, Postgres' own precision (drizzle makes the shared client
  // return them as text; the body's millisecond text would put an endpoint made in the same
  // millisecond after a change that followed it).
  const endpoints = await sql<{ id: string; organization_id: string; events: string[]; created_us: number }[]>`
    select id, organization_id, events, (extract(epoch from created_at) * 1000000)::float8 as created_us from webhook_endpoints where enabled and organization_id = any(${orgs}::uuid[])`;

  const rows: { id: string; organization_id: string; endpoint_id: string; event_id: string; event_type: string; payload: string }[] = [];
  if (endpoints.length) {
    const wanted = events.flatMap((e) => {
      const type = eventTypeOf(e.resource_type, e.change);
      const targets = type ? endpoints.filter((x) => x.organization_id === e.organization_id && x.events.includes(type) && x.created_us <= e.at_us) : [];
      return targets.length ? [{ e, type: type!, targets }] : [];
    });
    // Resources by (organization, type): one query per group.
    const groups = new Map<string, { org: string; type: ResourceType; ids: string[] }>();
    for (const { e } of wanted) {
      const k = `${e.organization_id}/${e.resource_type}`;
      const g = groups.get(k) ?? { org: e.organization_id, type: e.resource_type, ids: [] };
      g.ids.push(e.resource_id);
      groups.set(k, g);
    }
    const resources = new Map<string, Map<string, unknown>>();
    for (const [k, g] of groups) resources.set(k, await loadResources(db, g.org, g.type, g.ids));
    for (const { e, type, targets } of wanted) {
      const payload = webhookBody(
        { id: e.id, type, at: e.at, organizationId: e.organization_id, resourceId: e.resource_id },
        resources.get(`${e.organization_id}/${e.resource_type}`)?.get(e.resource_id),
      );
      for (const t of targets)
        rows.push({ id: randomUUID(), organization_id: e.organization_id, endpoint_id: t.id, event_id: e.id, event_type: type, payload });
    }
  }

  const last = events.at(-1)!;
  const committed = await sql.begin(async (tx) => {
    const moved =
      await tx`update webhook_dispatch set xid = ${last.xid}::xid8, seq = ${last.seq}::bigint where id = 1 and xid = ${pos.xid}::xid8 and seq = ${pos.seq}::bigint returning id`;
    if (!moved.length) return false;
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000);
      await tx`insert into webhook_deliveries ${tx(part, "id", "organization_id", "endpoint_id", "event_id", "event_type", "payload")}`;
    }
    return true;
  });
  return committed ? { deliveries: rows.map((r) => ({ id: r.id, organizationId: r.organization_id })), events: events.length } : { deliveries: [], events: 0 };
}
