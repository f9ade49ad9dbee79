import type { Worker } from "bullmq";
import type { Logger } from "@insp/core";

/**
 * Employee sync before welcome mail, within one worker process: while its employee-sync jobs
 * run, its mail worker takes no new job, so a batch's answer is not slowed by the mails it
 * creates (on two cores, a welcome mail costs about as much CPU as its employee); the mails go
 * out as soon as the batch is done (bench/README.md). A mail never waits more than
 * `maxDeferMs` in a row: under endless sync traffic the mail worker runs for a second after
 * each such stretch. `maxDeferMs` 0 turns this off.
 */
export function preferSyncOverMail(sync: Worker, mail: Worker, maxDeferMs: number, logger: Logger): () => void {
  if (maxDeferMs <= 0) return () => {};
  let active = 0;
  let pausedAt: number | null = null;
  let forcedUntil = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  const pause = () => {
    if (pausedAt !== null || Date.now() < forcedUntil) return;
    pausedAt = Date.now();
    void mail.pause(true).catch((err) => logger.warn({ err }, "could not pause the mail worker"));
  };
  const resume = () => {
    if (pausedAt === null) return;
    pausedAt = null;
    mail.resume();
  };
  const started = () => {
    active++;
    clearTimeout(resumeTimer);
    pause();
  };
  const ended = () => {
    active = Math.max(0, active - 1);
    // Resume once no sync job has started for a moment (the next one of a batch follows at once).
    if (active === 0) resumeTimer = setTimeout(() => active === 0 && resume(), 50);
  };
  sync.on("active", started);
  sync.on("completed", ended);
  sync.on("failed", ended);
  const guard = setInterval(() => {
    if (pausedAt !== null && Date.now() - pausedAt > maxDeferMs) {
      forcedUntil = Date.now() + 1_000;
      resume();
    }
  }, 250);
  return () => {
    clearInterval(guard);
    clearTimeout(resumeTimer);
    sync.off("active", started);
    sync.off("completed", ended);
    sync.off("failed", ended);
    resume();
  };
}
