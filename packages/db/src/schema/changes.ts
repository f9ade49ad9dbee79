import { sql } from "drizzle-orm";
import { bigserial, customType, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, orgId } from "./columns.ts";

/** Postgres's 64-bit transaction id (`pg_current_xact_id()`), read and written as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The change log behind the feeds: one row per change of a template, inspection or employee,
 * written in the transaction that made the change. `xid` is that transaction's id: a feed reads
 * rows in (xid, seq) order and only those whose transaction ended before every running one began
 * (below the snapshot's xmin), so a row committed late can never appear behind a cursor that
 * already passed it (packages/core/src/changes/feed.ts).
 */
export const changeEvents = pgTable(
  "change_events",
  {
    seq: bigserial("seq", { mode: "bigint" }).primaryKey(),
    organizationId: orgId(),
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
    /** template, inspection, employee */
    resourceType: text("resource_type").notNull(),
    resourceId: uuid("resource_id").notNull(),
    /** created, updated, published, archived, deactivated */
    change: text("change").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("change_events_feed_idx").on(t.organizationId, t.resourceType, t.xid, t.seq), index("change_events_created_idx").on(t.createdAt)],
);
