import { sql } from "drizzle-orm";
import { bigserial, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, orgColumn } from "./columns.ts";

/**
 * Who changed what, written in the transaction that made the change: the actor (API key id,
 * OAuth client id, user id; `admin_cli` for the operator's CLI, `anonymous` for failed logins),
 * the action, the resource, the NAMES of the changed fields (never values) and the request id.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
    id: uuid("id").notNull().defaultRandom(),
    organizationId: orgColumn(),
    /** api_key, oauth_client, user, admin_cli, anonymous */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id"),
    changedFields: text("changed_fields")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  // Every employee change of a sync writes a row, so few indexes: the organization's entries newest
  // first (other filters are applied while walking it), a resource's history, and a BRIN index on
  // the time for retention (rows arrive in time order; a few pages for millions of rows).
  (t) => [
    primaryKey({ name: "audit_log_pkey", columns: [t.organizationId, t.seq] }),
    index("audit_log_org_resource_idx").on(t.organizationId, t.resourceType, t.resourceId, t.seq),
    index("audit_log_created_brin").using("brin", t.createdAt),
  ],
);
