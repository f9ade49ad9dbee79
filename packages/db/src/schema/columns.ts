import { timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** Shared column helpers: every table's id, tenant and timestamps are declared the same way. */
export const id = () => uuid("id").primaryKey().defaultRandom();

/** Every tenant row carries its organization; deleting an organization removes its data. */
export const orgId = () =>
  uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });

/**
 * The organization of a row written for every employee a sync changes (assignments, the change
 * log, the audit log), without a foreign key: each key check locks the organization's row
 * (FOR KEY SHARE, a new multixact whenever transactions overlap), eight times per new employee
 * with the key; five of those checks are these (bench/README.md, issue 24). Assignments go
 * with their employee (its foreign key cascades), so they still leave with the organization;
 * nothing deletes an organization today, and a deletion must remove its change-log and audit
 * rows by organization_id (the row was written in the transaction of a change to a row of the
 * same organization, so the value is always a real organization).
 */
export const orgColumn = () => uuid("organization_id").notNull();

export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
