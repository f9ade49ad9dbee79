import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultStack, type FaultStack } from "@insp/testing";
import { caller, employees, expectAllCreatedOnce, expectRecovered, report, sleep, until } from "./faults.fixtures.ts";

/** The SMTP server refusing connections for a while: welcome mails wait in the outbox and go out once, later. */

let stack: FaultStack;
beforeAll(async () => {
  stack = await startFaultStack({ workers: 2 });
});
afterAll(() => stack?.stop());

describe("SMTP down, then up", () => {
  it("every welcome mail is delivered exactly once after the server comes back", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const sent = employees(t, 50, { welcome: true });
    await stack.stopSmtp();
    expectAllCreatedOnce(await api.sync(sent), sent);
    await sleep(10_000);
    const [attempts] = await stack.db.sql<{ failed: number; pending: number }[]>`
      select count(*) filter (where attempts > 0)::int as failed, count(*) filter (where status = 'pending')::int as pending
      from mail_outbox where organization_id = ${t.organization.id}`;
    // Tried and failed, still pending: nothing lost, nothing given up.
    expect(attempts).toEqual({ failed: 50, pending: 50 });
    await stack.startSmtp();
    const back = Date.now();
    const mine = () => stack.smtp.messages.filter((m) => sent.some((e) => e.email === m.envelopeTo[0]));
    await until("every welcome mail", async () => mine().length >= 50, 120_000, 100);
    report("SMTP down 10 s: every welcome mail delivered after it came back", Date.now() - back);
    await sleep(3_000);
    expect(mine().length).toBe(50);
    expect(new Set(mine().map((m) => m.envelopeTo[0])).size).toBe(50);
    // Each carries the Message-ID of its outbox row, the same on every attempt.
    expect(new Set(mine().map((m) => m.headers["message-id"])).size).toBe(50);
    const [left] = await stack.db.sql<
      { n: number }[]
    >`select count(*)::int as n from mail_outbox where organization_id = ${t.organization.id} and status <> 'sent'`;
    expect(left!.n).toBe(0);
    await expectRecovered(stack, "SMTP back");
  });
});
