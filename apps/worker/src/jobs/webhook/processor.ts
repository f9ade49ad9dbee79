import { SecretBox, attemptDelivery, parseSchedule, targetPolicy, type DeliveryConfig } from "@insp/core";
import { enqueueRetry, parseJobData } from "@insp/queue";
import type { ProcessorFactory, WorkerDeps } from "../../deps.ts";

export function deliveryConfig(env: WorkerDeps["env"]): DeliveryConfig {
  return {
    box: new SecretBox(env.WEBHOOK_SECRET_KEY),
    policy: targetPolicy(env),
    schedule: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE)!,
    timeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000,
    disableAfterSeconds: env.WEBHOOK_DISABLE_AFTER_SECONDS,
  };
}

/**
 * webhook: one attempt of one delivery (core/webhooks/deliver.ts). A failed attempt with
 * retries left schedules the next as a delayed job; if that enqueue fails, the sweep gives the
 * delivery its job back once it is due. The receiver's answer is logged by status only.
 */
export const webhookProcessor: ProcessorFactory = (deps) => {
  const cfg = deliveryConfig(deps.env);
  return async (job, _token, signal) => {
    const data = parseJobData("webhook", job.data);
    const outcome = await attemptDelivery(deps.db, cfg, data.organizationId, data.deliveryId, data.attempt, signal);
    if (outcome.kind === "busy") throw new Error("another process is sending this delivery now; tried again later");
    if (outcome.kind === "retry") {
      deps.logger.info({ deliveryId: data.deliveryId, attempt: outcome.attempt, nextAt: outcome.at }, "webhook attempt failed; retry scheduled");
      await enqueueRetry(deps.queues, data.organizationId, data.deliveryId, outcome.attempt, outcome.at).catch((err) =>
        deps.logger.warn({ deliveryId: data.deliveryId, err }, "could not schedule the webhook retry; the sweep will"),
      );
    }
    return outcome.kind;
  };
};
