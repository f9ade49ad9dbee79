import { ErrorBody, IdParam, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** Webhook endpoints, their deliveries and replays (extension): /api/webhooks. */

export const WEBHOOK_EVENTS = [
  "template.created",
  "template.published",
  "template.archived",
  "template.draft_created",
  "inspection.created",
  "inspection.updated",
  "inspection.completed",
  "inspection.reviewed",
  "action.created",
  "action.updated",
  "action.completed",
  "action.overdue",
  "employee.created",
  "employee.updated",
  "employee.deactivated",
  "employee.erased",
  "sync.request.completed",
  "api_key.created",
  "api_key.revoked",
  "oauth_client.created",
  "oauth_client.rotated",
  "oauth_client.revoked",
  "user.created",
  "user.updated",
  "user.disabled",
  "user.enabled",
  "site.created",
  "site.updated",
  "site.archived",
  "site.deleted",
  "group.created",
  "group.updated",
  "group.archived",
  "group.deleted",
  "role.created",
  "role.updated",
  "role.archived",
  "role.deleted",
  "response_type.created",
  "response_type.updated",
  "response_type.archived",
  "response_type.deleted",
  "asset_type.created",
  "asset_type.updated",
  "asset_type.archived",
  "asset_type.deleted",
  "asset.created",
  "asset.updated",
  "asset.archived",
  "asset.deleted",
  "schedule.created",
  "schedule.updated",
  "schedule.deleted",
  "occurrence.opened",
  "occurrence.due_soon",
  "occurrence.missed",
  "occurrence.completed",
  "occurrence.reassigned",
] as const;

const eventList = z
  .array(z.enum(WEBHOOK_EVENTS, { message: `must be one of ${WEBHOOK_EVENTS.join(", ")}` }))
  .min(1, "events must name at least one event type")
  .max(WEBHOOK_EVENTS.length * 2, "events has too many entries");
const url = z.string().min(1, "url is required").max(2048, "url must be at most 2048 characters");
const description = z.string().max(500, "description must be at most 500 characters").nullable();

export const CreateWebhookBody = z.strictObject({ url, events: eventList, description: description.optional() });
export const UpdateWebhookBody = z
  .strictObject({ url: url.optional(), events: eventList.optional(), description: description.optional(), enabled: z.boolean().optional() })
  .refine((b) => Object.keys(b).length > 0, "give at least one of url, events, description, enabled");
const replayWindow = z
  .strictObject({
    since: z.iso.datetime({ offset: true, message: "since must be an ISO 8601 date-time" }),
    until: z.iso.datetime({ offset: true, message: "until must be an ISO 8601 date-time" }).optional(),
  })
  .refine((b) => b.until === undefined || Date.parse(b.until) > Date.parse(b.since), { message: "until must be later than since", path: ["until"] });
export const ReplayBody = z.union([z.strictObject({ eventId: z.string().min(1) }), replayWindow], {
  message: "give eventId or since",
});
export const DeliveriesQuery = z.object(pageQuery);

export const WebhookEndpoint = registry.register(
  "WebhookEndpoint",
  z.object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().openapi({ description: "Why the service disabled it (410 Gone, failing for 5 days); null otherwise." }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  }),
);
const secret = z
  .string()
  .openapi({ description: "The signing secret (whsec_...). Shown only in this answer.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
export const CreatedWebhookEndpoint = registry.register("CreatedWebhookEndpoint", WebhookEndpoint.extend({ secret }));
export const RotatedSecret = registry.register("RotatedWebhookSecret", z.object({ secret, previousSecretExpiresAt: isoTimestamp }));
export const WebhookDeliveries = registry.register(
  "WebhookDeliveries",
  z.object({
    deliveries: z.array(
      z.object({
        id: z.uuid(),
        eventId: z.uuid().openapi({ description: "The webhook-id header of every attempt." }),
        eventType: z.enum(WEBHOOK_EVENTS),
        status: z.enum(["pending", "succeeded", "failed"]),
        failureReason: z
          .string()
          .nullable()
          .openapi({ description: "Why it failed for good: no success after the last attempt, or the endpoint was disabled (and why)." }),
        createdAt: isoTimestamp,
        nextAttemptAt: isoTimestamp.nullable(),
        attempts: z.array(
          z.object({
            attempt: z.number().int(),
            statusCode: z.number().int().nullable(),
            durationMs: z.number().int(),
            response: z.string().nullable().openapi({ description: "The first 1 KB of the receiver's answer." }),
            error: z.string().nullable(),
            at: isoTimestamp,
          }),
        ),
      }),
    ),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);
export const ReplayAccepted = registry.register(
  "WebhookReplay",
  z.object({
    replayed: z.number().int(),
    hasMore: z.boolean().openapi({ description: "Always false: a replay past WEBHOOK_REPLAY_MAX_DELIVERIES is refused (422) instead of cut short." }),
  }),
);
const ReplayTooLarge = registry.register(
  "WebhookReplayTooLarge",
  ErrorBody.extend({
    limit: z.number().int().openapi({ description: "WEBHOOK_REPLAY_MAX_DELIVERIES" }),
    until: isoTimestamp.openapi({ description: "An until that keeps the window within the limit: replay since..until, then from until on." }),
  }),
);

const security = keyOrUser("webhooks:manage");
const tag = "Webhooks; extension";
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export const createWebhookOp = defineOperation({
  method: "post",
  path: "/api/webhooks",
  summary: `Register a webhook endpoint; ${tag}`,
  description:
    "Events are POSTed as `{id, type, timestamp, organizationId, data}` and signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). In production the url must be https and must not resolve to a private, loopback or link-local address. An organization has at most WEBHOOK_MAX_ENDPOINTS_PER_ORG endpoints (default 25): past it, 409.",
  auth: security,
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateWebhookBody,
          example: { url: "https://hooks.example.com/inspections", events: ["inspection.completed", "employee.deactivated"], description: "Reporting" },
        },
      },
    },
  },
  responses: { 201: json(CreatedWebhookEndpoint, "The endpoint, with its secret"), ...errorResponses(400, 401, 403, 409, 429) },
});
export const listWebhooksOp = defineOperation({
  method: "get",
  path: "/api/webhooks",
  summary: `List webhook endpoints; ${tag}`,
  auth: security,
  responses: { 200: json(z.array(WebhookEndpoint), "Endpoints, newest first"), ...errorResponses(401, 403, 429) },
});
export const getWebhookOp = defineOperation({
  method: "get",
  path: "/api/webhooks/{id}",
  summary: `One webhook endpoint; ${tag}`,
  auth: security,
  request: { params: IdParam },
  responses: { 200: json(WebhookEndpoint, "The endpoint"), ...errorResponses(401, 403, 404, 429) },
});
export const updateWebhookOp = defineOperation({
  method: "patch",
  path: "/api/webhooks/{id}",
  summary: `Change a webhook endpoint; ${tag}`,
  description: "enabled: true also clears why the service disabled it.",
  auth: security,
  request: {
    params: IdParam,
    body: {
      content: {
        "application/json": {
          schema: UpdateWebhookBody,
          examples: {
            enable: { summary: "Turn the endpoint back on (also clears why the service disabled it)", value: { enabled: true } },
            change: {
              summary: "Another url and event types",
              value: {
                url: "https://hooks.example.com/inspections/v2",
                events: ["inspection.created", "inspection.completed", "employee.deactivated"],
                description: "Reporting v2",
              },
            },
          },
        },
      },
    },
  },
  responses: { 200: json(WebhookEndpoint, "The endpoint"), ...errorResponses(400, 401, 403, 404, 429) },
});
export const deleteWebhookOp = defineOperation({
  method: "delete",
  path: "/api/webhooks/{id}",
  summary: `Delete a webhook endpoint and its deliveries; ${tag}`,
  auth: security,
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404, 429) },
});
export const rotateWebhookSecretOp = defineOperation({
  method: "post",
  path: "/api/webhooks/{id}/rotate-secret",
  summary: `New signing secret; ${tag}`,
  description: "For 24 hours both the new and the previous secret sign every delivery (two signatures in webhook-signature).",
  auth: security,
  request: { params: IdParam },
  responses: { 200: json(RotatedSecret, "The new secret"), ...errorResponses(401, 403, 404, 429) },
});
export const listDeliveriesOp = defineOperation({
  method: "get",
  path: "/api/webhooks/{id}/deliveries",
  summary: `Deliveries of an endpoint with every attempt; ${tag}`,
  auth: security,
  request: { params: IdParam, query: DeliveriesQuery },
  responses: { 200: json(WebhookDeliveries, "Deliveries, newest first"), ...errorResponses(400, 401, 403, 404, 429) },
});
export const replayWebhookOp = defineOperation({
  method: "post",
  path: "/api/webhooks/{id}/replay",
  summary: `Send past events again; ${tag}`,
  description:
    "`{eventId}`: that event; `{since}`: every event of the endpoint's types since then (`until`: before then), oldest first. A replay that would create more than WEBHOOK_REPLAY_MAX_DELIVERIES deliveries (default 10,000) creates none and answers 422 with an `until` that fits. Replays carry the event's original id.",
  auth: security,
  request: {
    params: IdParam,
    body: {
      content: {
        "application/json": {
          schema: ReplayBody,
          examples: {
            event: {
              summary: "One event again, by its id (the webhook-id header of its deliveries)",
              value: { eventId: "0d7f6c2a-3b9e-4f1d-8a5c-6e2b9d4f7a13" },
            },
            since: { summary: "Every event of the endpoint's types since then, oldest first", value: { since: "2026-03-01T00:00:00Z" } },
            window: {
              summary: "Every event of the endpoint's types from since to just before until",
              value: { since: "2026-03-01T00:00:00Z", until: "2026-03-02T00:00:00Z" },
            },
          },
        },
      },
    },
  },
  responses: {
    202: json(ReplayAccepted, "Deliveries created"),
    ...errorResponses(400, 401, 403, 404, 429),
    422: json(ReplayTooLarge, "The replay would create more deliveries than WEBHOOK_REPLAY_MAX_DELIVERIES; none were created: narrow it"),
  },
});
