export { assertMayReceive, eventTypeOf, type WebhookEventType } from "./events.ts";
export { SecretBox, newWebhookSecret } from "./secrets.ts";
export { targetPolicy, urlProblem, isAllowedAddress, type TargetPolicy } from "./address.ts";
export { sendWebhook } from "./send.ts";
export { DEFAULT_RETRY_SCHEDULE, parseSchedule, retryDelayMs } from "./schedule.ts";
export { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "./endpoints.ts";
export { dispatchWebhookEvents } from "./dispatch.ts";
export { attemptDelivery, duration, signedHeaders, type DeliveryConfig } from "./deliver.ts";
export { listDeliveries, replayEvents, requeueStaleDeliveries } from "./deliveries.ts";
