import type { Job } from "bullmq";
import { describe, expect, it } from "vitest";
import { createLogger } from "@insp/core";
import { loadWorkerEnv } from "../src/env.ts";
import { JobTimeoutError, jobTimeouts, withTimeout } from "../src/jobs/timeout.ts";

const logger = createLogger("worker-test", "silent");
const job = { id: "1", attemptsMade: 0 } as Job;
const limit = { seconds: 0.05, setting: "SYNC_JOB_TIMEOUT_SECONDS" };

describe("job timeouts", () => {
  it("fail a run that does not settle, abort its signal with the same error and count it", async () => {
    let seen: AbortSignal | undefined;
    let counted = 0;
    const hung = withTimeout(
      "employee-sync",
      (_job, _token, signal) => ((seen = signal), new Promise(() => {})),
      limit,
      logger,
      () => counted++,
    );
    const err = await hung(job, "token").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect((err as Error).message).toBe(
      "employee-sync job ran longer than its timeout of 0.05 s (SYNC_JOB_TIMEOUT_SECONDS); stopped, to be retried per the queue's policy",
    );
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(err);
    expect(counted).toBe(1);
  });

  it("pass a run's own outcome through, and BullMQ's cancellation on to the processor", async () => {
    let counted = 0;
    expect(
      await withTimeout(
        "mail",
        async () => "sent",
        limit,
        logger,
        () => counted++,
      )(job),
    ).toBe("sent");
    const failing = withTimeout(
      "mail",
      () => Promise.reject(new Error("smtp said no")),
      limit,
      logger,
      () => counted++,
    );
    await expect(failing(job)).rejects.toThrow("smtp said no");
    const cancel = new AbortController();
    let seen: AbortSignal | undefined;
    const run = withTimeout(
      "mail",
      (_job, _token, signal) => ((seen = signal), new Promise(() => {})),
      { ...limit, seconds: 60 },
      logger,
      () => counted++,
    );
    void run(job, "token", cancel.signal).catch(() => {});
    cancel.abort(new Error("cancelled"));
    expect(seen?.aborted).toBe(true);
    expect(counted).toBe(0);
  });

  it("per kind, from the settings: a webhook job defaults to the delivery timeout plus a margin", () => {
    const defaults = jobTimeouts(loadWorkerEnv({}));
    expect(Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, v.seconds]))).toEqual({
      "employee-sync": 60,
      mail: 60,
      "inspection-import": 300,
      "inspection-report": 300,
      "inspection-export": 1800,
      webhook: 25,
    });
    expect(jobTimeouts(loadWorkerEnv({ WEBHOOK_TIMEOUT_SECONDS: "30" })).webhook.seconds).toBe(45);
    expect(jobTimeouts(loadWorkerEnv({ WEBHOOK_JOB_TIMEOUT_SECONDS: "5" })).webhook).toEqual({ seconds: 5, setting: "WEBHOOK_JOB_TIMEOUT_SECONDS" });
  });
});
