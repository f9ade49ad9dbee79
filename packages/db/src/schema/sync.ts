import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";

/** One POST /api/v1/sync/employees call: the request and, when done, its response. */
export const syncRequests = pgTable(
  "sync_requests",
  {
    id: id(),
    organizationId: orgId(),
    /** OAuth client id (text) that sent it. */
    clientId: text("client_id"),
    syncBatchId: text("sync_batch_id"),
    /** processing, completed */
    status: text("status").notNull().default("processing"),
    dryRun: boolean("dry_run").notNull().default(false),
    /** The HTTP request id, for the audit entries the workers write. */
    requestId: text("request_id"),
    total: integer("total").notNull(),
    createdAt: createdAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    index("sync_requests_org_created_idx").on(t.organizationId, t.createdAt),
    index("sync_requests_processing_idx")
      .on(t.createdAt)
      .where(sql`status = 'processing'`),
  ],
);

/** One employee of a sync request. The worker writes its outcome in the employee's transaction. */
export const syncRequestItems = pgTable(
  "sync_request_items",
  {
    id: id(),
    organizationId: orgId(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => syncRequests.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    externalEmployeeId: text("external_employee_id"),
    /**
     * Items of a request that share an externalEmployeeId or an e-mail (transitively) share
     * a chain and run one after another in request order; null for invalid items.
     */
    chainKey: text("chain_key"),
    input: jsonb("input"),
    /** pending, done, failed */
    status: text("status").notNull().default("pending"),
    result: jsonb("result"),
    error: text("error"),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("sync_request_items_request_idx_key").on(t.requestId, t.idx),
    // Pending items only: "is the request done?" and "next item of this chain" stay cheap.
    index("sync_request_items_pending_idx")
      .on(t.requestId, t.chainKey, t.idx)
      .where(sql`status = 'pending'`),
    // SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG counts an organization's pending items at every sync request.
    index("sync_request_items_org_pending_idx")
      .on(t.organizationId)
      .where(sql`status = 'pending'`),
  ],
);

/** Outgoing mail written in the same transaction as the change that causes it (outbox). */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    organizationId: orgId(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    /** Non-secret template data only; a temporary password is made at delivery, never stored. */
    data: jsonb("data").notNull().default({}),
    /** pending, sent, failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: ts("sent_at"),
  },
  (t) => [index("mail_outbox_status_idx").on(t.status, t.createdAt)],
);

/**
 * A snapshot reconciliation (POST /api/v1/sync/sessions): batches sent with its id record who
 * appeared; its commit makes every ACTIVE employee in its scope who did not appear INACTIVE,
 * unless the deletion guard quarantines it for an administrator's approval.
 */
export const syncSessions = pgTable(
  "sync_sessions",
  {
    id: id(),
    organizationId: orgId(),
    /** OAuth client id (text) that opened it. */
    clientId: text("client_id"),
    /** open, quarantined, committing, committed, cancelled, expired */
    status: text("status").notNull().default("open"),
    /** {department?, siteId?, metadata?: {key, value?}}: the employees it speaks for; {} all of them. */
    scope: jsonb("scope").notNull().default({}),
    batches: integer("batches").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    /** When its commit was applied (committing) or found nothing to do (committed). */
    committedAt: ts("committed_at"),
    /** The sync request that applies its deactivations, one INACTIVE record per employee. */
    deactivationRequestId: uuid("deactivation_request_id"),
    /** Quarantined: {wouldDeactivate, activeInScope}; committed: {deactivated}. */
    outcome: jsonb("outcome"),
    /** Who approved or cancelled it: {actorType, actorId}. */
    decidedBy: jsonb("decided_by"),
  },
  (t) => [index("sync_sessions_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** The external employee ids a session's batches named (valid records or not). */
export const syncSessionMembers = pgTable(
  "sync_session_members",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => syncSessions.id, { onDelete: "cascade" }),
    externalEmployeeId: text("external_employee_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.externalEmployeeId] })],
);
