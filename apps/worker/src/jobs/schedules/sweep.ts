import { materializeOccurrences, missOccurrences, openOccurrences, reassignLeavers, remindOccurrences } from "@insp/core";
import { enqueueMails } from "@insp/queue";
import type { PeriodicTask, WorkerDeps } from "../../deps.ts";

const BATCH = 500;

/** Runs `step` until it moves fewer than a batch; returns how many it moved. */
async function drain(step: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/**
 * One batch of reminders; the reminder e-mails it queued (remindByEmail) get their mail jobs after
 * its commit. A job that is not enqueued is not lost: the mail outbox sweep requeues its row.
 */
async function remind(deps: WorkerDeps): Promise<number> {
  const { reminded, mails } = await remindOccurrences(deps.db, BATCH);
  const byOrg = new Map<string, typeof mails>();
  for (const m of mails) byOrg.set(m.organizationId, [...(byOrg.get(m.organizationId) ?? []), m]);
  for (const [organizationId, list] of byOrg)
    await enqueueMails(
      deps.queues,
      organizationId,
      list.map((m) => m.outboxId),
    ).catch((err: unknown) => deps.logger.warn({ err }, "reminder mail jobs not enqueued; the mail outbox sweep sends them"));
  return reminded;
}

/**
 * Scheduled inspections (docs/schedules.md), every SCHEDULE_SWEEP_SECONDS in every replica: make
 * occurrences SCHEDULE_HORIZON_DAYS ahead, open those whose start has come, remind those within
 * their reminder of the due time (by e-mail too when the schedule says so), miss those past it, and give leavers' open occurrences to whom
 * their schedule's leaver rule says. Every step claims its rows with skip locked
 * and inserts with on conflict do nothing, so replicas sweeping together move each row once.
 */
async function sweepSchedules(deps: WorkerDeps): Promise<void> {
  const SCHEDULES = 100;
  // Making occurrences pauses every few seconds (between batches) for the steps that go by the
  // clock, so a large expansion (10,000 new schedules take 30 to 80 s on 2 cores) does not hold
  // back the opening, reminding and missing of every organization's occurrences meanwhile.
  const MATERIALIZE_SLICE_MS = 3000;
  // Each step on its own: one that fails (logged) does not hold the others back.
  const step = async (name: string, fn: () => Promise<number>) => {
    try {
      return await fn();
    } catch (err) {
      deps.logger.error({ err, step: name }, "schedule sweep step failed");
      return 0;
    }
  };
  const n = { made: 0, opened: 0, reassigned: 0, reminded: 0, missed: 0 };
  for (let more = true; more;) {
    const until = Date.now() + MATERIALIZE_SLICE_MS;
    more = false;
    n.made += await step("materialize", async () => {
      let made = 0;
      while (Date.now() < until) {
        const r = await materializeOccurrences(deps.db, deps.env.SCHEDULE_HORIZON_DAYS, SCHEDULES);
        made += r.occurrences;
        if (r.schedules < SCHEDULES) return made;
      }
      more = true;
      return made;
    });
    n.opened += await step("open", () => drain(() => openOccurrences(deps.db, BATCH), BATCH));
    n.reassigned += await step("leavers", () => drain(() => reassignLeavers(deps.db, 100), 100));
    n.reminded += await step("remind", () => drain(() => remind(deps), BATCH));
    n.missed += await step("miss", () => drain(() => missOccurrences(deps.db, BATCH), BATCH));
  }
  if (Object.values(n).some(Boolean)) deps.logger.info(n, "swept scheduled inspections");
}

export const scheduleSweeps: PeriodicTask[] = [
  { name: "scheduled inspections", everyMs: (deps) => deps.env.SCHEDULE_SWEEP_SECONDS * 1000, run: sweepSchedules },
];
