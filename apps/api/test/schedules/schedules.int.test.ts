import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Schedules over HTTP (docs/schedules.md): create, read with an ETag, change with If-Match, pause,
 * resume, delete, the upcoming preview across a daylight-saving change; bad input as 400s naming
 * the field; who may change them; another organization's schedule is a 404.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(async () => {
  await stack?.stop();
});

const key = (t: DemoSeed) => ({ bearer: t.apiKey });
const body = (t: DemoSeed, templateId: string, extra: Record<string, unknown> = {}) => ({
  name: "Forklift morning check",
  templateId,
  recurrence: { rrule: "FREQ=DAILY" },
  timeZone: "Europe/Berlin",
  startDate: "2026-03-27",
  startTime: "09:00",
  dueWithinMinutes: 120,
  assignees: { userIds: [t.users.inspector.id], groupIds: [t.groups[0]!.id] },
  target: { kind: "sites", siteIds: [t.sites[0]!.id] },
  ...extra,
});

describe("schedules", () => {
  it("create, read with an ETag, list, change with If-Match, pause, resume, delete; audited", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const tpl = await publishedAudit(stack, t);
    const created = await stack.http.post("/api/schedules", body(t, tpl.id, { paused: true }), { auth });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: "Forklift morning check",
      recurrence: { rrule: "FREQ=DAILY" },
      timeZone: "Europe/Berlin",
      assignees: { userIds: [t.users.inspector.id], groupIds: [t.groups[0]!.id], roleIds: [], siteIds: [] },
      target: { kind: "sites", siteIds: [t.sites[0]!.id] },
      mustComplete: "ONE",
      canLateSubmit: false,
      reminderMinutesBefore: null,
      leaverRule: { kind: "site_manager" },
      paused: true,
      revision: 1,
    });
    const id = created.body.id;
    const read = await stack.http.get(`/api/schedules/${id}`, { auth });
    expect(read.body).toEqual(created.body);
    expect((await stack.http.get(`/api/schedules/${id}`, { auth, headers: { "if-none-match": read.headers.get("etag")! } })).status).toBe(304);
    expect((await stack.http.get("/api/schedules", { auth })).body).toMatchObject({ schedules: [{ id }], pagination: { total: 1 } });

    expect((await stack.http.patch(`/api/schedules/${id}`, { startTime: "07:00" }, { auth })).status).toBe(428);
    const changed = await stack.http.patch(`/api/schedules/${id}`, { startTime: "07:00" }, { auth, headers: { "if-match": read.headers.get("etag")! } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ startTime: "07:00", revision: 2 });
    expect((await stack.http.patch(`/api/schedules/${id}`, { name: "X" }, { auth, headers: { "if-match": read.headers.get("etag")! } })).status).toBe(412);
    const resumed = await stack.http.patch(`/api/schedules/${id}`, { paused: false }, { auth, headers: { "if-match": "*" } });
    expect(resumed.body).toMatchObject({ paused: false, pausedAt: null, revision: 3 });

    expect((await stack.http.request("DELETE", `/api/schedules/${id}`, { auth })).status).toBe(204);
    expect((await stack.http.get(`/api/schedules/${id}`, { auth })).status).toBe(404);
    const audit = await stack.http.get(`/api/audit?resourceType=schedule&resourceId=${id}`, { auth });
    expect(audit.body.items.map((e: any) => e.action).reverse()).toEqual(["schedule.created", "schedule.updated", "schedule.resumed", "schedule.deleted"]);
  });

  it("the upcoming preview keeps 09:00 Berlin time across the spring change and creates nothing", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const s = (await stack.http.post("/api/schedules", body(t, tpl.id, { paused: true }), { auth: key(t) })).body;
    const up = await stack.http.get(`/api/schedules/${s.id}/upcoming?from=2026-03-27T00:00:00Z&count=4`, { auth: key(t) });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toEqual({
      timeZone: "Europe/Berlin",
      upcoming: [
        {
          startAt: "2026-03-27T08:00:00.000Z",
          dueAt: "2026-03-27T10:00:00.000Z",
          localStart: "2026-03-27T09:00:00+01:00",
          localDue: "2026-03-27T11:00:00+01:00",
        },
        {
          startAt: "2026-03-28T08:00:00.000Z",
          dueAt: "2026-03-28T10:00:00.000Z",
          localStart: "2026-03-28T09:00:00+01:00",
          localDue: "2026-03-28T11:00:00+01:00",
        },
        {
          startAt: "2026-03-29T07:00:00.000Z",
          dueAt: "2026-03-29T09:00:00.000Z",
          localStart: "2026-03-29T09:00:00+02:00",
          localDue: "2026-03-29T11:00:00+02:00",
        },
        {
          startAt: "2026-03-30T07:00:00.000Z",
          dueAt: "2026-03-30T09:00:00.000Z",
          localStart: "2026-03-30T09:00:00+02:00",
          localDue: "2026-03-30T11:00:00+02:00",
        },
      ],
    });
    const [made] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from occurrences where schedule_id = ${s.id}`;
    expect(made!.n).toBe(0);
    expect((await stack.http.get(`/api/schedules/${s.id}/upcoming?count=0`, { auth: key(t) })).body.details).toEqual(["count: count must be at least 1"]);
  });

  it("bad input is a 400 naming the field", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const tpl = await publishedAudit(stack, t);
    const draft = await createTemplate(stack, t, auditTemplateBody(t, { name: "Draft audit" }), false);
    const post = (extra: Record<string, unknown>) => stack.http.post("/api/schedules", body(t, tpl.id, extra), { auth });
    const cases: [Record<string, unknown>, string][] = [
      [{ recurrence: { rrule: "FREQ=SOMETIMES" } }, "recurrence.rrule: "],
      [{ recurrence: { rrule: "INTERVAL=2" } }, "recurrence.rrule: recurrence.rrule does not parse: FREQ is required (e.g. FREQ=DAILY)"],
      [{ timeZone: "Europe/Atlantis" }, "timeZone: timeZone 'Europe/Atlantis' is not an IANA time zone (e.g. Europe/Berlin)"],
      [{ startTime: "25:00" }, "startTime: startTime must be a local time HH:MM (00:00 to 23:59)"],
      [{ templateId: draft.id }, `templateId: template '${draft.id}' is DRAFT; a schedule needs a PUBLISHED template`],
      [
        { templateId: "00000000-0000-4000-8000-000000000000" },
        "templateId: template '00000000-0000-4000-8000-000000000000' is not one of the organization's templates",
      ],
      [
        { assignees: { userIds: ["00000000-0000-4000-8000-000000000001"] } },
        "assignees.userIds: '00000000-0000-4000-8000-000000000001' is not a user of the organization",
      ],
      [{ target: { kind: "assets", assetTypeId: "nope" } }, "target.assetTypeId: 'nope' is not an asset type of the organization"],
      [
        { leaverRule: { kind: "user", userId: "00000000-0000-4000-8000-000000000002" } },
        "leaverRule.userId: '00000000-0000-4000-8000-000000000002' is not a user of the organization",
      ],
    ];
    for (const [extra, detail] of cases) {
      const res = await post(extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe("Invalid schedule");
      expect(res.body.details.join("\n"), JSON.stringify(extra)).toContain(detail);
    }
    const noName = await stack.http.post("/api/schedules", { ...body(t, tpl.id), name: undefined, dueWithinMinutes: 0 }, { auth });
    expect(noName.status).toBe(400);
    expect(noName.body.details).toEqual(expect.arrayContaining([expect.stringMatching(/^name: /), "dueWithinMinutes: dueWithinMinutes must be at least 1"]));
    const [kept] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from schedules where organization_id = ${t.organization.id}`;
    expect(kept!.n).toBe(0);
  });

  it("admin users and keys with schedules:write change them; inspectors and read-only keys read; another organization's is a 404", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const inspector = { bearer: await userToken(stack, t.users.inspector) };
    const admin = { bearer: await userToken(stack, t.users.admin) };
    const readOnly = { bearer: (await createApiKey(stack.db.db, t.organization.id, "ro", undefined, undefined, ["schedules:read"])).apiKey };
    const none = { bearer: (await createApiKey(stack.db.db, t.organization.id, "none", undefined, undefined, ["templates:read"])).apiKey };
    const refused = await stack.http.post("/api/schedules", body(t, tpl.id, { paused: true }), { auth: inspector });
    expect(refused).toMatchObject({ status: 403, body: { error: "Only admin users can create, change and delete schedules" } });
    expect((await stack.http.post("/api/schedules", body(t, tpl.id, { paused: true }), { auth: readOnly })).status).toBe(403);
    const s = await stack.http.post("/api/schedules", body(t, tpl.id, { paused: true }), { auth: admin });
    expect(s.status, s.text).toBe(201);
    expect((await stack.http.get(`/api/schedules/${s.body.id}`, { auth: inspector })).status).toBe(200);
    expect((await stack.http.get(`/api/schedules/${s.body.id}`, { auth: readOnly })).status).toBe(200);
    expect((await stack.http.get(`/api/schedules/${s.body.id}`, { auth: none })).body.error).toMatch(/schedules:read/);
    expect((await stack.http.patch(`/api/schedules/${s.body.id}`, { name: "x" }, { auth: inspector, headers: { "if-match": "*" } })).status).toBe(403);
    for (const res of [
      await stack.http.get(`/api/schedules/${s.body.id}`, { auth: key(other) }),
      await stack.http.get(`/api/schedules/${s.body.id}/upcoming`, { auth: key(other) }),
      await stack.http.patch(`/api/schedules/${s.body.id}`, { name: "x" }, { auth: key(other), headers: { "if-match": "*" } }),
      await stack.http.request("DELETE", `/api/schedules/${s.body.id}`, { auth: key(other) }),
    ])
      expect(res.status).toBe(404);
    expect((await stack.http.get("/api/schedules", { auth: key(other) })).body.schedules).toEqual([]);
    // Another organization's template, user or site is not one of this organization's.
    const theirs = await publishedAudit(stack, other);
    const cross = await stack.http.post("/api/schedules", body(t, theirs.id, { assignees: { userIds: [other.users.inspector.id] } }), { auth: key(t) });
    expect(cross.status).toBe(400);
    expect(cross.body.details).toHaveLength(2);
  });
});
