import type { Scenario } from "../lib/scenario.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, p95, round, timed } from "../lib/stats.ts";
import type { SmtpSink } from "../lib/smtp-sink.ts";
import { phaseNote, syncRounds, warmupSize, type Phases } from "../lib/sync.ts";

const ACCOUNT = { forcePasswordReset: true, sendWelcomeEmail: true };

/**
 * Initial syncs with forcePasswordReset and sendWelcomeEmail: account creation with the
 * outbox in the employee's transaction, and the mail jobs (temporary password hashed at
 * delivery) sent over real SMTP to the bench's sink. The batch latency is what the HR system
 * waits for; "mails delivered" is how long after it the last welcome mail left the worker.
 */
export const syncAccounts: Scenario = {
  name: "sync-accounts",
  describe: "initial syncs with forcePasswordReset + sendWelcomeEmail (outbox, mail jobs, SMTP)",
  async run(ctx, progress) {
    const { batch, rounds } = ctx.opts;
    const org = ctx.tenant.organization.id;
    const pendingMail = async () =>
      Number((await ctx.db.sql`select count(*)::int as n from mail_outbox where organization_id = ${org} and status = 'pending'`)[0]!.n);
    const drain = async (deadlineMs = 120_000) => {
      const until = Date.now() + deadlineMs;
      while ((await pendingMail()) > 0) {
        if (Date.now() > until) throw new Error("welcome mails still pending after 120 s");
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const smtp = ctx.shared.get("smtp:sink") as SmtpSink;
    const sink = smtp.received;
    const before = sink();
    /** Mails per second over a round's delivery: from its first mail to its last. */
    const deliveryRates: number[] = [];
    await syncRounds(ctx, progress, { label: "acct", expect: "CREATED", shape: { account: ACCOUNT }, rounds: 0 }); // warm-up batch only
    await drain();
    const batchMs: number[] = [];
    const phases: Phases[] = [];
    const drainMs: number[] = [];
    // One round at a time so the mails of a batch do not overlap the next batch.
    const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
      for (let r = 0; r < rounds; r++) {
        const roundStart = smtp.arrivals.length;
        const { ms, phases: p } = await syncRounds(ctx, (m) => progress(m.replace("round 1/1", `round ${r + 1}/${rounds}`)), {
          label: "acct",
          expect: "CREATED",
          shape: { account: ACCOUNT },
          warmup: false,
          rounds: 1,
          measureCpu: false,
        });
        batchMs.push(ms[0]!);
        phases.push(p[0]!);
        const d = await timed(drain);
        drainMs.push(d.ms);
        // The round's mails: those that arrived since the round began (the previous one was drained).
        const times = smtp.arrivals.slice(roundStart);
        if (times.length >= 2) deliveryRates.push(((times.length - 1) * 1000) / (times[times.length - 1]! - times[0]!));
        progress(`round ${r + 1}/${rounds}: welcome mails delivered ${round(d.ms, 0)} ms after the answer`);
      }
    });
    const mails = sink() - before;
    const expected = rounds * batch + warmupSize(batch);
    const duplicates = smtp.duplicates().size;
    const notes =
      mails !== expected || duplicates
        ? [`sync-accounts: the SMTP sink received ${mails} mails, expected ${expected}; ${duplicates} recipients got more than one`]
        : [];
    const mailRow = latencyRow(
      "sync-accounts",
      `…then until every welcome mail is delivered (after the answer)`,
      drainMs,
      undefined,
      describeCpu(cpu, rounds * batch, "employee with mail", "API+worker"),
    );
    // Mails per second while they are delivered: a round's first mail to its last (median over rounds).
    mailRow.throughput = { value: round(median(deliveryRates)), unit: "mails/s" };
    mailRow.extra = `${mails} mails for ${expected} new accounts, ${duplicates} recipients with more than one; ${mailRow.extra ?? ""}`;
    return {
      name: "sync-accounts",
      rows: [
        latencyRow(
          "sync-accounts",
          `batch of ${batch} new employees with forcePasswordReset + sendWelcomeEmail`,
          batchMs,
          { items: batch, unit: "employees/s" },
          phaseNote(phases),
        ),
        mailRow,
      ],
      metrics: {
        batch,
        medianMs: round(median(batchMs)),
        p95Ms: round(p95(batchMs)),
        employeesPerS: round((batch * 1000) / median(batchMs)),
        mailDrainMedianMs: round(median(drainMs)),
        mailsPerS: mailRow.throughput.value,
        mailsReceived: mails,
        mailsExpected: expected,
        mailDuplicates: duplicates,
        ...cpuMetrics(cpu, rounds * batch),
      },
      samples: { batch: batchMs, mailDrain: drainMs },
      notes,
    };
  },
};
