import { sql } from "drizzle-orm";
import { bigint, bigserial, customType, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, orgColumn } from "./columns.ts";

/** Postgres's 64-bit transaction id (`pg_current_xact_id()`), read and written as a decimal string. */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The change log behind the feeds and webhooks: one row per change of a template, inspection,
 * employee or sync request, written in the transaction that made the change. `xid` is that
 * transaction's id: readers take rows in (xid, seq) order and only those whose transaction ended
 * before every running one began (below the snapshot's xmin), so a row committed late can never
 * appear behind a position a reader already passed (packages/core/src/feeds/feed.ts).
 */
export const changeEvents = pgTable(
  "change_events",
  {
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
    /** The event's public id (webhook-id, feed and replay). */
    id: uuid("id").notNull().defaultRandom(),
    organizationId: orgColumn(),
    xid: xid8("xid")
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** template, inspection, employee, sync_request, action, api_key, oauth_client */
    resourceType: text("resource_type").notNull(),
    resourceId: uuid("resource_id").notNull(),
    /** created, updated, published, archived, deactivated, completed */
    change: text("change").notNull(),
    createdAt: createdAt(),
  },
  // Three indexes, each written by every employee change of a sync: the reading order (the
  // dispatcher), the feeds' (organization, type, order), and the public id (replay).
  (t) => [
    primaryKey({ name: "change_events_pkey", columns: [t.xid, t.seq] }),
    index("change_events_feed_idx").on(t.organizationId, t.resourceType, t.xid, t.seq),
    uniqueIndex("change_events_id_key").on(t.id),
  ],
);

/** How far the webhook dispatcher has read the change log (one row, id 1). */
export const webhookDispatch = pgTable("webhook_dispatch", {
  id: bigint("id", { mode: "number" }).primaryKey(),
  xid: xid8("xid").notNull(),
  seq: bigint("seq", { mode: "bigint" }).notNull(),
});
