import { describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";
import { dailySchedule, key, useScheduleStack } from "../fixtures/schedules.fixtures.ts";

/**
 * Occurrences made by two workers' sweeps (docs/schedules.md): opened at their start for the
 * people assigned at that moment, reminded, missed or late at their due time, each once; a paused
 * schedule makes none; a sweep that slept makes what it missed without duplicates; the list of a
 * user's own work, and webhooks for every state change.
 */

const ctx = useScheduleStack({ workers: 2, receiver: true });

/** A daily schedule in UTC whose first start was a minute ago, for the inspector and the first group: it opens at the next sweep. */
const dailyFor = (t: DemoSeed, templateId: string, extra: Record<string, unknown> = {}): Promise<{ id: string }> =>
  dailySchedule(ctx.stack, t, templateId, { assignees: { userIds: [t.users.inspector.id], groupIds: [t.groups[0]!.id] }, ...extra });

const rowsOf = (scheduleId: string) =>
  ctx.stack.db.sql<
    { id: string; state: string; start_at: string }[]
  >`select id, state, start_at from occurrences where schedule_id = ${scheduleId} order by start_at`;

describe("occurrences", () => {
  it("open for the people assigned at that moment, remind, then miss at the due time; each state change is a webhook, once", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    // The admin is an employee in the first group: a group assignee.
    const [emp] = await ctx.stack.db.sql<{ id: string }[]>`
      insert into employees (organization_id, external_employee_id, status, user_id) values (${t.organization.id}, 'E-1', 'ACTIVE', ${t.users.admin.id}) returning id`;
    await ctx.stack.db.sql`insert into employee_groups (employee_id, group_id, organization_id) values (${emp!.id}, ${t.groups[0]!.id}, ${t.organization.id})`;
    const path = `/occ-${t.organization.id}`;
    const ep = await ctx.stack.http.post(
      "/api/webhooks",
      { url: `${ctx.receiver.baseUrl}${path}`, events: ["occurrence.opened", "occurrence.due_soon", "occurrence.missed"] },
      { auth: key(t) },
    );
    expect(ep.status, ep.text).toBe(201);
    await ctx.receiver.configure(path, { secrets: [ep.body.secret] });

    const s = await dailyFor(t, tpl.id, { reminderMinutesBefore: 90 });
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    const mine = await until(
      "the first occurrence is open in the inspector's list",
      () => ctx.stack.http.get("/api/occurrences?state=OPEN", { auth: inspector }),
      (r) => r.body.occurrences?.length === 1,
    );
    const occ = mine.body.occurrences[0];
    expect(occ).toMatchObject({
      scheduleId: s.id,
      scheduleName: "Daily walk-through",
      templateId: tpl.id,
      templateVersion: tpl.version,
      state: "OPEN",
      mustComplete: "ONE",
      assigneeUserIds: [t.users.inspector.id, t.users.admin.id].sort(),
      needsAssignee: false,
    });
    expect(new Date(occ.dueAt).getTime() - new Date(occ.startAt).getTime()).toBe(60 * 60_000);
    // Two workers, a sweep a second: each start made once, 14 days ahead.
    const rows = await until(
      "15 occurrences made",
      () => rowsOf(s.id),
      (r) => r.length >= 15,
    );
    expect(rows).toHaveLength(15);
    expect(new Set(rows.map((r) => String(r.start_at))).size).toBe(15);
    expect(rows.slice(1).every((r) => r.state === "UPCOMING")).toBe(true);
    // The upcoming ones show in the admin's list only when asked for: a user sees what is assigned, and UPCOMING ones are not assigned yet.
    expect((await ctx.stack.http.get("/api/occurrences?state=UPCOMING", { auth: inspector })).body.occurrences).toEqual([]);
    expect((await ctx.stack.http.get(`/api/occurrences?assignee=any&scheduleId=${s.id}`, { auth: key(t) })).body.pagination.total).toBe(15);

    await ctx.stack.db.sql`update occurrences set due_at = now() - interval '1 second' where id = ${occ.id}`;
    await until(
      "missed",
      () => ctx.stack.http.get(`/api/occurrences/${occ.id}`, { auth: key(t) }),
      (r) => r.body.state === "MISSED",
    );
    const got = await until(
      "three webhooks",
      () => ctx.receiver.received(path),
      (rs) => rs.length >= 3,
    );
    expect(got.map((r) => r.body.type).sort()).toEqual(["occurrence.due_soon", "occurrence.missed", "occurrence.opened"]);
    for (const r of got) expect(r.body.data.id).toBe(occ.id);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await ctx.receiver.received(path)).toHaveLength(3);
    // A missed occurrence stays missed.
    expect((await ctx.stack.http.get(`/api/occurrences/${occ.id}`, { auth: key(t) })).body.state).toBe("MISSED");
    const feed = await ctx.stack.http.get("/api/feed/occurrences", { auth: key(t) });
    expect(feed.body.items.map((i: any) => i.change)).toEqual(["opened", "due_soon", "missed"]);
  });

  it("with canLateSubmit a passed due time makes it LATE", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const s = await dailyFor(t, tpl.id, { canLateSubmit: true });
    const [first] = await until(
      "open",
      () => rowsOf(s.id),
      (r) => r[0]?.state === "OPEN",
    );
    await ctx.stack.db.sql`update occurrences set due_at = now() - interval '1 second' where id = ${first!.id}`;
    await until(
      "late",
      () => rowsOf(s.id),
      (r) => r[0]?.state === "LATE",
    );
  });

  it("a paused schedule makes none; a sweep that slept makes what it missed, once", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const paused = await dailyFor(t, tpl.id, { paused: true });
    const active = await dailyFor(t, tpl.id);
    await until(
      "the active one is made",
      () => rowsOf(active.id),
      (r) => r.length === 15,
    );
    await new Promise((r) => setTimeout(r, 2000));
    expect(await rowsOf(paused.id)).toEqual([]);

    // As if the sweep had last run days ago: its mark is behind, and what came after it is not made.
    await ctx.stack.db.sql`delete from occurrences where schedule_id = ${active.id} and start_at > now() + interval '2 days'`;
    await ctx.stack.db.sql`update schedules set materialized_until = now() - interval '3 days' where id = ${active.id}`;
    const again = await until(
      "remade",
      async () =>
        (await ctx.stack.db.sql`select materialized_until > now() + interval '1 day' as done from schedules where id = ${active.id}`)[0]!.done
          ? rowsOf(active.id)
          : [],
      (r) => r.length >= 15,
    );
    expect(again).toHaveLength(15);
    expect(new Set(again.map((r) => String(r.start_at))).size).toBe(15);
  });

  it("a user lists only their own; another organization's occurrence is a 404", async () => {
    const t = await ctx.stack.tenant();
    const other = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const s = await dailyFor(t, tpl.id, { assignees: { userIds: [t.users.admin.id] } });
    const [first] = await until(
      "open",
      () => rowsOf(s.id),
      (r) => r[0]?.state === "OPEN",
    );
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    const admin = { bearer: await userToken(ctx.stack, t.users.admin) };
    expect((await ctx.stack.http.get("/api/occurrences", { auth: inspector })).body.occurrences).toEqual([]);
    expect((await ctx.stack.http.get(`/api/occurrences?assignee=${t.users.admin.id}`, { auth: inspector })).status).toBe(403);
    expect((await ctx.stack.http.get("/api/occurrences", { auth: admin })).body.occurrences.map((o: any) => o.id)).toEqual([first!.id]);
    expect((await ctx.stack.http.get(`/api/occurrences?assignee=${t.users.admin.id}&state=OPEN`, { auth: key(t) })).body.occurrences).toHaveLength(1);
    expect((await ctx.stack.http.get("/api/occurrences?state=SOON", { auth: key(t) })).status).toBe(400);
    expect((await ctx.stack.http.get(`/api/occurrences/${first!.id}`, { auth: key(other) })).status).toBe(404);
    expect((await ctx.stack.http.get("/api/occurrences?assignee=any", { auth: key(other) })).body.occurrences).toEqual([]);
  });
});
