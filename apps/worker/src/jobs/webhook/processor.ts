import { SecretBox, attemptDelivery, parseSchedule, targetPolicy, type DeliveryConfig } from "@insp/core";
import { DelayedError, enqueueRetry, parseJobData, releaseSlot, takeSlot, type Job } from "@insp/queue";
import type { ProcessorFactory, WorkerDeps } from "../../deps.ts";

function deliveryConfig(env: WorkerDeps["env"]): DeliveryConfig {
  return {
    box: new SecretBox(env.WEBHOOK_SECRET_KEY),
    policy: targetPolicy(env),
    schedule: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE)!,
    timeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000,
    disableAfterSeconds: env.WEBHOOK_DISABLE_AFTER_SECONDS,
  };
}

/**
 * How long a delivery waits for its organization's slot. While the slots' holders are young (the
 * most recent took its slot less than a second ago), the receiver is answering and a slot frees
 * within milliseconds: 25 to 50 ms. Once every holder has waited a second or more, the receiver is
 * slow or hangs: 100 ms, doubling with each wait, at most a minute, with jitter, so that 15,000
 * queued deliveries of a receiver that hangs come back about 250 a second (each a few Redis
 * calls) instead of spinning through the workers.
 */
const slotWaitMs = (job: Job, youngestMs: number) => {
  if (youngestMs < 1_000) return 25 + Math.round(Math.random() * 25);
  const waits = Math.max(0, (job.attemptsStarted ?? 1) - 1 - job.attemptsMade);
  return Math.round(Math.min(60_000, 100 * 2 ** Math.min(waits, 10)) * (0.75 + Math.random() / 2));
};

/**
 * webhook: one attempt of one delivery (core/webhooks/deliver.ts). A failed attempt with
 * retries left schedules the next as a delayed job; if that enqueue fails, the sweep gives the
 * delivery its job back once it is due. The receiver's answer is logged by status only.
 * At most WEBHOOK_MAX_IN_FLIGHT_PER_ORG attempts of one organization run at once: a delivery
 * over it goes back to the delayed set without using an attempt (BullMQ's moveToDelayed, then
 * DelayedError), so the workers' other slots stay free for other organizations.
 */
export const webhookProcessor: ProcessorFactory = (deps) => {
  const cfg = deliveryConfig(deps.env);
  const redis = deps.queues.connection;
  return async (job, token, signal) => {
    const data = parseJobData("webhook", job.data);
    const slots = `${deps.queues.prefix}:webhook:inflight:${data.organizationId}`;
    // Per run, not per job: a run retried while an earlier run of the same job is still sending
    // (after a job timeout) holds a slot of its own, and gives back only its own.
    const holder = `${job.id ?? `${data.deliveryId}_${data.attempt}`}:${token ?? "direct"}`;
    const slot = token ? await takeSlot(redis, slots, holder, deps.env.WEBHOOK_MAX_IN_FLIGHT_PER_ORG, cfg.timeoutMs + 30_000) : { taken: true as const };
    if (!slot.taken) {
      await job.moveToDelayed(Date.now() + slotWaitMs(job, slot.youngestMs), token!);
      throw new DelayedError();
    }
    const outcome = await attemptDelivery(deps.db, cfg, data.organizationId, data.deliveryId, data.attempt, signal).finally(() =>
      releaseSlot(redis, slots, holder).catch(() => {}),
    );
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
