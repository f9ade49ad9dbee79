import { timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** Shared column helpers: every table's id, tenant and timestamps are declared the same way. */
export const id = () => uuid("id").primaryKey().defaultRandom();

/** Every tenant row carries its organization; deleting an organization removes its data. */
export const orgId = () =>
  uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });

export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
