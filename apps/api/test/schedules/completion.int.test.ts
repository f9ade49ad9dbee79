import { describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { importBody, importOk, publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { dailySchedule, key, openedOccurrence, useScheduleStack } from "../fixtures/schedules.fixtures.ts";

/**
 * Inspections doing an occurrence's work (docs/schedules.md, Completing an occurrence): an import
 * or PATCH with occurrenceId completes it or marks it started; LATE ones complete late; ALL needs
 * every assignee; a missed, completed or mismatched one is a 400 naming occurrenceId.
 */

const ctx = useScheduleStack({ workers: 1, receiver: true });

/** The first occurrence, open, of a new daily schedule whose first start was a minute ago, at the first site. */
async function openOccurrence(t: DemoSeed, tpl: Tpl, extra: Record<string, unknown> = {}) {
  const s = await dailySchedule(ctx.stack, t, tpl.id, { name: "Daily audit", target: { kind: "sites", siteIds: [t.sites[0]!.id] }, ...extra });
  return (await openedOccurrence(ctx.stack, t, s.id)) as { id: string; siteId: string };
}

const get = (t: DemoSeed, id: string) => ctx.stack.http.get(`/api/occurrences/${id}`, { auth: key(t) }).then((r) => r.body);

describe("completing occurrences", () => {
  it("an import with occurrenceId completes it (occurrence.completed); it cannot be completed twice", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const path = `/done-${t.organization.id}`;
    const ep = await ctx.stack.http.post("/api/webhooks", { url: `${ctx.receiver.baseUrl}${path}`, events: ["occurrence.completed"] }, { auth: key(t) });
    await ctx.receiver.configure(path, { secrets: [ep.body.secret] });
    const occ = await openOccurrence(t, tpl);
    expect(occ.siteId).toBe(t.sites[0]!.id);
    const insp = await importOk(ctx.stack, t, importBody(t, tpl, { occurrenceId: occ.id }));
    expect(await get(t, occ.id)).toMatchObject({ state: "COMPLETED", inspectionId: insp.id, completedByUserIds: [t.users.inspector.id] });
    const [hook] = await until(
      "occurrence.completed",
      () => ctx.receiver.received(path),
      (rs) => rs.length >= 1,
    );
    expect(hook!.body).toMatchObject({ type: "occurrence.completed", data: { id: occ.id, state: "COMPLETED" } });
    const again = await ctx.stack.http.post("/api/inspections", importBody(t, tpl, { occurrenceId: occ.id }), { auth: key(t) });
    expect(again.status).toBe(400);
    expect(again.body.details).toEqual([`occurrenceId '${occ.id}' is COMPLETED: it is already completed`]);
  });

  it("IN_PROGRESS marks it started; the PATCH that completes the inspection completes it", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const occ = await openOccurrence(t, tpl);
    const insp = await importOk(ctx.stack, t, importBody(t, tpl, { occurrenceId: occ.id, status: "IN_PROGRESS" }));
    const started = await get(t, occ.id);
    expect(started).toMatchObject({ state: "OPEN", inspectionId: insp.id, completedAt: null });
    expect(started.startedAt).not.toBeNull();
    const done = await ctx.stack.http.patch(`/api/inspections/${insp.id}`, { status: "COMPLETED" }, { auth: key(t), headers: { "if-match": "*" } });
    expect(done.status, done.text).toBe(200);
    expect(await get(t, occ.id)).toMatchObject({ state: "COMPLETED", inspectionId: insp.id });
    const feed = await ctx.stack.http.get("/api/feed/occurrences", { auth: key(t) });
    expect(feed.body.items.map((i: any) => i.change)).toEqual(["opened", "started", "completed"]);
  });

  it("a LATE one completes late; a MISSED one stays missed (400 naming occurrenceId)", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const late = await openOccurrence(t, tpl, { canLateSubmit: true });
    const missed = await openOccurrence(t, tpl, { name: "No late ones" });
    await ctx.stack.db.sql`update occurrences set due_at = now() - interval '1 second' where id in (${late.id}, ${missed.id})`;
    await until(
      "late and missed",
      async () => [(await get(t, late.id)).state, (await get(t, missed.id)).state],
      (s) => s[0] === "LATE" && s[1] === "MISSED",
    );
    await importOk(ctx.stack, t, importBody(t, tpl, { occurrenceId: late.id }));
    expect((await get(t, late.id)).state).toBe("COMPLETED_LATE");
    const refused = await ctx.stack.http.post("/api/inspections", importBody(t, tpl, { occurrenceId: missed.id }), { auth: key(t) });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([`occurrenceId '${missed.id}' is MISSED: it was missed and stays missed`]);
    expect((await get(t, missed.id)).state).toBe("MISSED");
  });

  it("the occurrence's site and template must match; another organization's occurrence is unknown", async () => {
    const t = await ctx.stack.tenant();
    const other = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const occ = await openOccurrence(t, tpl);
    const wrongSite = await ctx.stack.http.post("/api/inspections", importBody(t, tpl, { occurrenceId: occ.id, siteId: t.sites[1]!.id }), { auth: key(t) });
    expect(wrongSite.status).toBe(400);
    expect(wrongSite.body.details).toEqual([`occurrenceId '${occ.id}' is for site '${t.sites[0]!.id}': the inspection's siteId must be it`]);
    const otherTpl = await publishedAudit(ctx.stack, t);
    const wrongTpl = await ctx.stack.http.post("/api/inspections", importBody(t, otherTpl, { occurrenceId: occ.id }), { auth: key(t) });
    expect(wrongTpl.body.details).toEqual([`occurrenceId '${occ.id}' is for template '${tpl.id}', not '${otherTpl.id}'`]);
    const theirTpl = await publishedAudit(ctx.stack, other);
    const cross = await ctx.stack.http.post("/api/inspections", importBody(other, theirTpl, { occurrenceId: occ.id }), { auth: key(other) });
    expect(cross.body.details).toEqual([`occurrenceId '${occ.id}' is not an occurrence of this organization`]);
    expect((await get(t, occ.id)).state).toBe("OPEN");
  });

  it("mustComplete ALL completes once every assignee has completed one", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const occ = await openOccurrence(t, tpl, { mustComplete: "ALL", assignees: { userIds: [t.users.inspector.id, t.users.admin.id] } });
    await importOk(ctx.stack, t, importBody(t, tpl, { occurrenceId: occ.id }));
    expect(await get(t, occ.id)).toMatchObject({ state: "OPEN", completedByUserIds: [t.users.inspector.id] });
    await importOk(ctx.stack, t, importBody(t, tpl, { occurrenceId: occ.id, conductedBy: t.users.admin.id }));
    expect(await get(t, occ.id)).toMatchObject({ state: "COMPLETED", completedByUserIds: [t.users.inspector.id, t.users.admin.id] });
  });
});
