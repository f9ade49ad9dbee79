export { WEBHOOK_EVENT_TYPES, assertMayReceive, eventTypeOf, type EndpointActor, type WebhookEventType } from "./events.ts";
export { SecretBox, newWebhookSecret } from "./secrets.ts";
export { targetPolicy, urlProblem, isAllowedAddress, guardedLookup, type TargetPolicy } from "./address.ts";
export { sendWebhook, type SendResult } from "./send.ts";
export { DEFAULT_RETRY_SCHEDULE, parseSchedule, retryDelayMs } from "./schedule.ts";
export { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "./endpoints.ts";
export { dispatchWebhookEvents, webhookBody, type NewDelivery } from "./dispatch.ts";
export { attemptDelivery, duration, signedHeaders, type AttemptOutcome, type DeliveryConfig } from "./deliver.ts";
export { listDeliveries, replayEvents, requeueStaleDeliveries } from "./deliveries.ts";
