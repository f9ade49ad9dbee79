import { describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { importBody, importOk, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { dailySchedule, key, useScheduleStack } from "../fixtures/schedules.fixtures.ts";

/**
 * Asset targets (docs/schedules.md): a schedule for each asset of a site, of a type, or both makes
 * one occurrence per ACTIVE, unarchived asset, carrying the asset's site (so a list by siteId finds
 * it); an asset retired later gets no new ones; an asset's detail shows its next occurrence; ids
 * that are not the organization's are 400s naming the field.
 */

const ctx = useScheduleStack({ workers: 2 });

const ifAny = (t: DemoSeed) => ({ auth: key(t), headers: { "if-match": "*" } });

/** A "Fire Extinguisher" (the demo's type without required fields) at `siteId`. */
async function extinguisher(t: DemoSeed, code: string, siteId: string | null, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await ctx.stack.http.post(
    "/api/assets",
    { name: `Extinguisher ${code}`, code, assetTypeId: t.assetTypes[1]!.id, siteId, ...extra },
    { auth: key(t) },
  );
  if (res.status !== 201) throw new Error(`asset: ${res.status} ${res.text}`);
  return res.body.id;
}

/** A daily schedule in UTC whose first start was a minute ago, for each asset of `target`: it opens at the next sweep. */
const dailyFor = (t: DemoSeed, templateId: string, target: Record<string, unknown>): Promise<{ id: string; target: unknown }> =>
  dailySchedule(ctx.stack, t, templateId, { name: "Extinguisher check", target });

const rowsOf = (scheduleId: string) =>
  ctx.stack.db.sql<
    { id: string; state: string; asset_id: string; site_id: string | null; start_at: string }[]
  >`select id, state, asset_id, site_id, start_at from occurrences where schedule_id = ${scheduleId} order by start_at, asset_id`;
const countBy = (rows: { asset_id: string }[]) => rows.reduce<Record<string, number>>((m, r) => ({ ...m, [r.asset_id]: (m[r.asset_id] ?? 0) + 1 }), {});

describe("asset targets", () => {
  it("each asset of a site: the ACTIVE, unarchived ones, with the asset's site; an asset retired later gets no new ones", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const [main, north] = [t.sites[0]!.id, t.sites[1]!.id];
    const a1 = await extinguisher(t, "FE-1", main);
    const a2 = await extinguisher(t, "FE-2", main);
    const retired = await extinguisher(t, "FE-3", main, { status: "RETIRED" });
    const archived = await extinguisher(t, "FE-4", main);
    expect((await ctx.stack.http.patch(`/api/assets/${archived}`, { archived: true }, ifAny(t))).status).toBe(200);
    const elsewhere = await extinguisher(t, "FE-5", north);

    const s = await dailyFor(t, tpl.id, { kind: "assets", siteId: main });
    expect(s.target).toEqual({ kind: "assets", siteId: main });
    const rows = await until(
      "15 days for each of the two assets",
      () => rowsOf(s.id),
      (r) => r.length >= 30,
    );
    expect(countBy(rows)).toEqual({ [a1]: 15, [a2]: 15 });
    expect(rows.every((r) => r.site_id === main)).toBe(true);
    // The field app's list by site finds them; another site's list does not.
    expect((await ctx.stack.http.get(`/api/occurrences?assignee=any&scheduleId=${s.id}&siteId=${main}`, { auth: key(t) })).body.pagination.total).toBe(30);
    expect((await ctx.stack.http.get(`/api/occurrences?assignee=any&scheduleId=${s.id}&siteId=${north}`, { auth: key(t) })).body.occurrences).toEqual([]);

    // By type and site together: only the one at the North Depot.
    const both = await dailyFor(t, tpl.id, { kind: "assets", assetTypeId: t.assetTypes[1]!.id, siteId: north });
    const northRows = await until(
      "the North Depot's asset",
      () => rowsOf(both.id),
      (r) => r.length >= 15,
    );
    expect(countBy(northRows)).toEqual({ [elsewhere]: 15 });
    expect(northRows.every((r) => r.site_id === north)).toBe(true);

    // FE-2 retired after its occurrences were made: its next one is dropped when its start comes, not
    // opened, and a new expansion makes none for it; its open one stays.
    await until(
      "the first ones open",
      () => rowsOf(s.id),
      (r) => r.filter((x) => x.state === "OPEN").length === 2,
    );
    expect((await ctx.stack.http.patch(`/api/assets/${a2}`, { status: "RETIRED" }, ifAny(t))).status).toBe(200);
    const second = rows.filter((r) => r.asset_id === a2)[1]!;
    await ctx.stack.db.sql`update occurrences set start_at = now() - interval '1 second' where id = ${second.id}`;
    await until(
      "FE-2's second is dropped",
      () => rowsOf(s.id),
      (r) => !r.some((x) => x.id === second.id),
    );
    await ctx.stack.db.sql`delete from occurrences where schedule_id = ${s.id} and state = 'UPCOMING'`;
    await ctx.stack.db.sql`update schedules set materialized_until = null where id = ${s.id}`;
    const remade = await until(
      "made again",
      async () => ((await ctx.stack.db.sql`select materialized_until is not null as done from schedules where id = ${s.id}`)[0]!.done ? rowsOf(s.id) : []),
      (r) => r.length > 0,
    );
    expect(countBy(remade)).toEqual({ [a1]: 15, [a2]: 1 });
    expect(remade.find((r) => r.asset_id === a2)!.state).toBe("OPEN");
    expect((await ctx.stack.db.sql`select 1 from occurrences where asset_id in ${ctx.stack.db.sql([retired, archived])}`).length).toBe(0);
  });

  it("an asset's detail shows its next occurrence; an inspection of the asset completes it whatever site the inspection names", async () => {
    const t = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const a = await extinguisher(t, "FE-1", t.sites[0]!.id);
    const none = await extinguisher(t, "FE-2", t.sites[1]!.id);
    const s = await dailyFor(t, tpl.id, { kind: "assets", siteId: t.sites[0]!.id });
    const open = await until(
      "open",
      () => rowsOf(s.id),
      (r) => r[0]?.state === "OPEN",
    );
    const detail = await ctx.stack.http.get(`/api/assets/${a}`, { auth: key(t) });
    expect(detail.status).toBe(200);
    expect(detail.body.nextOccurrence).toEqual({
      id: open[0]!.id,
      scheduleId: s.id,
      state: "OPEN",
      startAt: new Date(open[0]!.start_at).toISOString(),
      dueAt: new Date(new Date(open[0]!.start_at).getTime() + 60 * 60_000).toISOString(),
    });
    expect((await ctx.stack.http.get(`/api/assets/${none}`, { auth: key(t) })).body.nextOccurrence).toBeNull();
    // The list shows it too.
    const listed = await ctx.stack.http.get(`/api/assets?siteId=${t.sites[0]!.id}`, { auth: key(t) });
    expect(listed.body.assets[0].nextOccurrence.id).toBe(open[0]!.id);

    // Completed by an inspection naming the asset: the asset is what counts, not the site it was at when the
    // occurrence was made (it may have moved since).
    await importOk(ctx.stack, t, importBody(t, tpl, { siteId: t.sites[1]!.id, assetId: a, occurrenceId: open[0]!.id }));
    expect((await ctx.stack.http.get(`/api/occurrences/${open[0]!.id}`, { auth: key(t) })).body.state).toBe("COMPLETED");
    const next = (await ctx.stack.http.get(`/api/assets/${a}`, { auth: key(t) })).body.nextOccurrence;
    expect(next).toMatchObject({ id: open[1]!.id, state: "UPCOMING", scheduleId: s.id });
  });

  it("a site or asset type that is not the organization's, or neither named, is a 400 naming the field", async () => {
    const t = await ctx.stack.tenant();
    const other = await ctx.stack.tenant();
    const tpl = await publishedAudit(ctx.stack, t);
    const post = (target: unknown) =>
      ctx.stack.http.post(
        "/api/schedules",
        {
          name: "x",
          templateId: tpl.id,
          recurrence: { rrule: "FREQ=DAILY" },
          timeZone: "UTC",
          startDate: "2026-03-02",
          startTime: "09:00",
          dueWithinMinutes: 60,
          target,
        },
        { auth: key(t) },
      );
    const cases: [unknown, string][] = [
      [{ kind: "assets", siteId: other.sites[0]!.id }, `target.siteId: '${other.sites[0]!.id}' is not a site of the organization`],
      [{ kind: "assets", siteId: "nope" }, "target.siteId: 'nope' is not a site of the organization"],
      [{ kind: "assets", assetTypeId: other.assetTypes[0]!.id }, `target.assetTypeId: '${other.assetTypes[0]!.id}' is not an asset type of the organization`],
      [{ kind: "assets" }, "target.assetTypeId: target.assetTypeId or target.siteId is required"],
    ];
    for (const [target, detail] of cases) {
      const res = await post(target);
      expect(res.status, JSON.stringify(target)).toBe(400);
      expect(res.body.details.join("\n"), JSON.stringify(target)).toContain(detail);
    }
    const ok = await post({ kind: "assets", assetTypeId: t.assetTypes[0]!.id, siteId: t.sites[1]!.id });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.target).toEqual({ kind: "assets", assetTypeId: t.assetTypes[0]!.id, siteId: t.sites[1]!.id });
  });
});
