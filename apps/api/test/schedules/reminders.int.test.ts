import { describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { useMailStack } from "../fixtures/mail.fixtures.ts";
import { dailySchedule, key } from "../fixtures/schedules.fixtures.ts";

/**
 * Reminder e-mails (docs/schedules.md): a schedule with remindByEmail mails each assignee once
 * when occurrence.due_soon is sent, through the mail outbox and the real SMTP path, with two
 * workers sweeping; a schedule without it mails nobody.
 */

const ctx = useMailStack({ workers: 2, env: { SCHEDULE_SWEEP_SECONDS: "1" } });

/** A daily Berlin schedule whose first start was a minute ago, due in an hour, reminded 90 minutes before: reminded as it opens. */
const remindedDaily = (t: DemoSeed, templateId: string, name: string, extra: Record<string, unknown>): Promise<{ id: string; remindByEmail: boolean }> =>
  dailySchedule(ctx.stack, t, templateId, {
    name,
    timeZone: "Europe/Berlin",
    reminderMinutesBefore: 90,
    assignees: { userIds: [t.users.inspector.id], groupIds: [t.groups[0]!.id] },
    target: { kind: "sites", siteIds: [t.sites[0]!.id] },
    ...extra,
  });

describe("reminder e-mails", () => {
  it("remindByEmail mails each assignee once with the occurrence's names and local due time; without it, nobody", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    // The admin is an employee in the first group: a group assignee with an e-mail address.
    const [emp] = await ctx.stack.db.sql<{ id: string }[]>`
      insert into employees (organization_id, external_employee_id, status, user_id) values (${t.organization.id}, 'E-1', 'ACTIVE', ${t.users.admin.id}) returning id`;
    await ctx.stack.db.sql`insert into employee_groups (employee_id, group_id, organization_id) values (${emp!.id}, ${t.groups[0]!.id}, ${t.organization.id})`;

    const quiet = await remindedDaily(t, tpl.id, `Quiet walk ${t.organization.id}`, {});
    expect(quiet.remindByEmail).toBe(false);
    const mailed = await remindedDaily(t, tpl.id, `Morning walk ${t.organization.id}`, { remindByEmail: true });
    expect(mailed.remindByEmail).toBe(true);
    const subject = `Due soon: Morning walk ${t.organization.id}`;

    const [occ] = await until(
      "both reminded",
      () =>
        ctx.stack.db.sql<{ id: string; schedule_id: string; due_at: Date }[]>`
          select id, schedule_id, due_at from occurrences where schedule_id in (${quiet.id}, ${mailed.id}) and reminded_at is not null order by schedule_id = ${mailed.id} desc`,
      (r) => r.length === 2,
    );
    expect(occ!.schedule_id).toBe(mailed.id);
    const toInspector = await ctx.smtp.waitFor((m) => m.envelopeTo.includes(t.users.inspector.email) && m.subject === subject);
    const toAdmin = await ctx.smtp.waitFor((m) => m.envelopeTo.includes(t.users.admin.email) && m.subject === subject);
    expect(toInspector.headers.from).toBe("Inspections <no-reply@example.test>");
    expect(toInspector.text).toContain("Hello Demo Inspector,");
    expect(toAdmin.text).toContain("Hello Demo Admin,");
    const due = new Date(occ!.due_at);
    const localDue = due.toLocaleTimeString("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" });
    for (const text of [toInspector.text, toAdmin.text]) {
      expect(text).toContain(`  Morning walk ${t.organization.id}`);
      expect(text).toContain("  Template: Plant audit");
      expect(text).toContain("  Site: Main Plant");
      expect(text).toMatch(new RegExp(`  Due: .* ${localDue} \\(Europe/Berlin\\)`));
      expect(text).toContain(`(occurrence ${occ!.id})`);
      expect(text).toContain("Sign in: https://app.example.test/login");
    }

    // Two workers sweeping every second: still one mail per assignee, and none for the quiet schedule.
    await new Promise((r) => setTimeout(r, 3000));
    const mine = ctx.smtp.messages.filter((m) => m.subject.includes(t.organization.id));
    expect(mine.map((m) => [m.envelopeTo.join(","), m.subject]).sort()).toEqual(
      [
        [t.users.admin.email, subject],
        [t.users.inspector.email, subject],
      ].sort(),
    );
    const rows = await ctx.stack.db.sql<{ kind: string; status: string }[]>`
      select kind, status from mail_outbox where organization_id = ${t.organization.id} and kind = 'occurrence_reminder'`;
    expect(rows).toEqual([
      { kind: "occurrence_reminder", status: "sent" },
      { kind: "occurrence_reminder", status: "sent" },
    ]);
  });

  it("remindByEmail is a boolean a PATCH can change", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const s = await remindedDaily(t, tpl.id, "Patched", { paused: true });
    const on = await ctx.stack.http.patch(`/api/schedules/${s.id}`, { remindByEmail: true }, { auth: key(t), headers: { "if-match": "*" } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ remindByEmail: true, revision: 2 });
    const bad = await ctx.stack.http.patch(`/api/schedules/${s.id}`, { remindByEmail: "yes" }, { auth: key(t), headers: { "if-match": "*" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.join("\n")).toContain("remindByEmail must be true or false");
    const never = await ctx.stack.http.patch(`/api/schedules/${s.id}`, { reminderMinutesBefore: null }, { auth: key(t), headers: { "if-match": "*" } });
    expect(never.status).toBe(400);
    expect(never.body.details).toEqual(["remindByEmail: remindByEmail needs reminderMinutesBefore (how long before the due time to remind)"]);
  });
});
