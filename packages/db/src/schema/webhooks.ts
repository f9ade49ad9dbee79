import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";

/**
 * Webhook endpoints of an organization. The signing secret must be readable to sign, so it is
 * stored encrypted (AES-256-GCM under WEBHOOK_SECRET_KEY), never in plain text; after a rotation
 * the previous one keeps signing until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    organizationId: orgId(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    /** Why the service disabled it (410 Gone, failing for 5 days); null when enabled or disabled by a user. */
    disabledReason: text("disabled_reason"),
    secretEnc: text("secret_enc").notNull(),
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** First failed attempt since the last success; cleared by a success. */
    failingSince: ts("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.organizationId, t.createdAt)],
);

/** One event to one endpoint: pending until an attempt succeeds, or failed after the last retry. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    organizationId: orgId(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** change_events.id: the webhook-id of every attempt. */
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The body, rendered once when the event was dispatched, so every retry sends the same bytes. */
    payload: text("payload").notNull(),
    /** pending, succeeded, failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Why it failed for good (no attempts left, endpoint disabled); null otherwise. */
    failureReason: text("failure_reason"),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_event_idx").on(t.organizationId, t.eventId),
  ],
);

/** Every attempt of a delivery, for GET /api/webhooks/{id}/deliveries. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id(),
    organizationId: orgId(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** HTTP status; null when no answer came (timeout, refused address, connection error). */
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    /** The first 1 KB of the answer's body. */
    response: text("response"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
