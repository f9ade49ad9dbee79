import { describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { dailySchedule, key, openedOccurrence, useScheduleStack } from "../fixtures/schedules.fixtures.ts";

/**
 * When people leave (docs/schedules.md): the HR sync terminates an assignee, and their open
 * occurrences go to whom the schedule's leaver rule says (the site's site_manager, or nobody and
 * flagged), with an occurrence.reassigned webhook.
 */

const ctx = useScheduleStack({ workers: 1, receiver: true });

const userOf = async (externalId: string) =>
  (await ctx.stack.db.sql<{ user_id: string }[]>`select user_id from employees where external_employee_id = ${externalId}`)[0]!.user_id;

async function openOccurrence(t: DemoSeed, tpl: Tpl, userId: string, leaverRule: unknown) {
  const s = await dailySchedule(ctx.stack, t, tpl.id, {
    name: "Daily audit",
    dueWithinMinutes: 600,
    assignees: { userIds: [userId] },
    target: { kind: "sites", siteIds: [t.sites[0]!.id] },
    leaverRule,
  });
  return (await openedOccurrence(ctx.stack, t, s.id)) as { id: string; assigneeUserIds: string[] };
}

describe("leavers", () => {
  it("a terminated assignee's open occurrences go to the site's site_manager, or to nobody and flagged; occurrence.reassigned", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const [leaver, manager] = [uniq("L"), uniq("M")];
    const sync = await syncCaller(ctx.stack, t);
    await sync.sync([
      { externalEmployeeId: leaver.id, email: leaver.email, firstName: "Lee", roles: ["inspector"], sites: [{ id: t.sites[0]!.id }], userAccount: {} },
      { externalEmployeeId: manager.id, email: manager.email, firstName: "Max", roles: ["site_manager"], sites: [{ id: t.sites[0]!.id }], userAccount: {} },
    ]);
    const [leaverUser, managerUser] = [await userOf(leaver.id), await userOf(manager.id)];
    const path = `/leavers-${t.organization.id}`;
    const ep = await ctx.stack.http.post("/api/webhooks", { url: `${ctx.receiver.baseUrl}${path}`, events: ["occurrence.reassigned"] }, { auth: key(t) });
    await ctx.receiver.configure(path, { secrets: [ep.body.secret] });

    const toManager = await openOccurrence(t, tpl, leaverUser, { kind: "site_manager" });
    const toNobody = await openOccurrence(t, tpl, leaverUser, { kind: "unassigned" });
    expect(toManager.assigneeUserIds).toEqual([leaverUser]);

    await sync.sync([{ externalEmployeeId: leaver.id, status: "TERMINATED", terminationDate: "2026-11-27" }]);
    const get = (id: string) => ctx.stack.http.get(`/api/occurrences/${id}`, { auth: key(t) }).then((r) => r.body);
    await until(
      "reassigned",
      async () => [await get(toManager.id), await get(toNobody.id)],
      ([a, b]) => a.assigneeUserIds[0] !== leaverUser && b.assigneeUserIds.length === 0,
    );
    expect(await get(toManager.id)).toMatchObject({ state: "OPEN", assigneeUserIds: [managerUser], needsAssignee: false });
    expect(await get(toNobody.id)).toMatchObject({ state: "OPEN", assigneeUserIds: [], needsAssignee: true });
    const hooks = await until(
      "two webhooks",
      () => ctx.receiver.received(path),
      (rs) => rs.length >= 2,
    );
    expect(hooks.map((h) => h.body.data.id).sort()).toEqual([toManager.id, toNobody.id].sort());
    expect(hooks.every((h) => h.body.type === "occurrence.reassigned")).toBe(true);
  });
});
