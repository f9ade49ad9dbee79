import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceOverdueActions, createApiKey, inviteUser, type DemoSeed } from "@insp/core";
import { startReceiver, startStack, until, type JsonResponse, type Receiver, type Stack } from "@insp/testing";
import { createTemplate, auditTemplateBody, importBody, importOk, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Corrective actions (docs/actions.md) through the real API and two worker processes, each running
 * the overdue sweep every second: the life of an action, tenancy, who may do what, webhooks, the
 * feed, and action.overdue sent exactly once per action while both workers (and the test itself)
 * sweep at the same time.
 */

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({ workers: 2, env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,1", ACTION_OVERDUE_SWEEP_SECONDS: "1" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

type Auth = { bearer: string };
const key = (t: DemoSeed): Auth => ({ bearer: t.apiKey });
const post = (auth: Auth, body: unknown) => stack.http.post("/api/actions", body, { auth });
const get = (auth: Auth, path: string, headers: Record<string, string> = {}) => stack.http.get(path, { auth, headers });
const patch = (auth: Auth, id: string, body: unknown, ifMatch?: string) =>
  stack.http.patch(`/api/actions/${id}`, body, { auth, headers: ifMatch === undefined ? {} : { "if-match": ifMatch } });

async function created(auth: Auth, body: Record<string, unknown>): Promise<any> {
  const res = await post(auth, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const apiKeyId = async (t: DemoSeed) =>
  (await stack.db.sql<{ id: string }[]>`select id from api_keys where organization_id = ${t.organization.id} and name = 'demo key'`)[0]!.id;
const hourFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const changesOf = (id: string) =>
  stack.db.sql<{ change: string }[]>`select change from change_events where resource_type = 'action' and resource_id = ${id} order by xid, seq`.then((rs) =>
    rs.map((r) => r.change),
  );

/** A tenant with a published "Plant audit" and one inspection of it. */
async function withInspection(): Promise<{ t: DemoSeed; tpl: Tpl; inspectionId: string }> {
  const t = await stack.tenant();
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const { id } = await importOk(stack, t, importBody(t, tpl));
  return { t, tpl, inspectionId: id };
}

describe("corrective actions", () => {
  it("the whole life: raise, list with every filter, read with an ETag, change with If-Match, complete, reopen", async () => {
    const { t, tpl, inspectionId } = await withInspection();
    const auth = key(t);
    const keyId = await apiKeyId(t);

    const full = await created(auth, {
      title: "  Replace the left brake pad  ",
      description: "Worn below 2 mm",
      assigneeId: t.users.inspector.id,
      dueAt: "2099-03-31T19:00:00+02:00",
      priority: "HIGH",
      inspectionId,
      questionId: tpl.q.brakes!.id,
    });
    expect(full).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: "Replace the left brake pad",
      description: "Worn below 2 mm",
      priority: "HIGH",
      status: "OPEN",
      assigneeId: t.users.inspector.id,
      assignee: { id: t.users.inspector.id, name: "Demo Inspector", email: t.users.inspector.email },
      dueAt: "2099-03-31T17:00:00.000Z",
      overdue: false,
      inspectionId,
      questionId: tpl.q.brakes!.id,
      createdBy: { type: "api_key", id: keyId },
      completedAt: null,
      completedBy: null,
      revision: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const minimal = await created(auth, { title: "Tidy the depot" });
    expect(minimal).toMatchObject({
      priority: "MEDIUM",
      status: "OPEN",
      description: null,
      assigneeId: null,
      assignee: null,
      dueAt: null,
      overdue: false,
      inspectionId: null,
      questionId: null,
    });
    const late = await created(auth, { title: "Refill the extinguisher", dueAt: "2020-01-01T00:00:00Z", assigneeId: t.users.admin.id, priority: "LOW" });
    expect(late.overdue).toBe(true);
    const onInspection = await created(auth, { title: "Check the whole truck", inspectionId });

    // GET with its ETag; If-None-Match with it is a 304.
    const one = await get(auth, `/api/actions/${full.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(full);
    const etag = one.headers.get("etag")!;
    expect(etag).toMatch(/^"r1-[0-9a-f]{8}"$/);
    expect((await get(auth, `/api/actions/${full.id}`, { "if-none-match": etag })).status).toBe(304);
    expect((await get(auth, `/api/actions/${full.id}`, { "if-none-match": '"r9-00000000"' })).status).toBe(200);

    // The list: newest first, each filter with its total, and pages.
    const ids = (res: JsonResponse) => res.body.actions.map((x: { id: string }) => x.id);
    const all = await get(auth, "/api/actions");
    expect(ids(all)).toEqual([onInspection.id, late.id, minimal.id, full.id]);
    expect(all.body.pagination).toEqual({ total: 4, limit: 50, offset: 0, hasMore: false });
    expect(all.body.actions[3]).toEqual(full);
    const filtered = async (query: string) => {
      const res = await get(auth, `/api/actions?${query}`);
      expect(res.status, res.text).toBe(200);
      return { ids: ids(res), total: res.body.pagination.total };
    };
    expect(await filtered(`assigneeId=${t.users.inspector.id}`)).toEqual({ ids: [full.id], total: 1 });
    expect(await filtered(`inspectionId=${inspectionId}`)).toEqual({ ids: [onInspection.id, full.id], total: 2 });
    expect(await filtered("overdue=true")).toEqual({ ids: [late.id], total: 1 });
    expect(await filtered("overdue=false")).toEqual({ ids: [onInspection.id, minimal.id, full.id], total: 3 });
    expect(await filtered("status=OPEN&limit=2")).toEqual({ ids: [onInspection.id, late.id], total: 4 });
    expect(await filtered("status=DONE")).toEqual({ ids: [], total: 0 });
    expect(await filtered("assigneeId=not-a-uuid")).toEqual({ ids: [], total: 0 });
    const page2 = await get(auth, "/api/actions?limit=3&offset=3");
    expect(ids(page2)).toEqual([full.id]);
    expect(page2.body.pagination).toEqual({ total: 4, limit: 3, offset: 3, hasMore: false });
    expect((await get(auth, "/api/actions?limit=3")).body.pagination).toEqual({ total: 4, limit: 3, offset: 0, hasMore: true });
    expect((await get(auth, "/api/actions?offset=10")).body.pagination).toEqual({ total: 4, limit: 50, offset: 10, hasMore: false });
    const badQuery = await get(auth, "/api/actions?status=FIXED&overdue=yes");
    expect(badQuery).toMatchObject({
      status: 400,
      body: { error: "Invalid query parameters", details: ["status: must be one of OPEN, IN_PROGRESS, DONE, CANCELLED", "overdue: must be true or false"] },
    });

    // PATCH: If-Match as for inspections.
    const start = { status: "IN_PROGRESS" };
    expect(await patch(auth, full.id, start)).toMatchObject({
      status: 428,
      body: { error: "If-Match is required: send the ETag of GET /api/actions/{id}, so that a change made meanwhile is not overwritten" },
    });
    expect(await patch(auth, full.id, start, '"r7"')).toMatchObject({
      status: 412,
      body: { error: "The action has changed since you read it (it is at revision 1); GET it again and reapply your change with its new ETag" },
    });
    expect((await patch(auth, full.id, start, 'W/"r1"')).status).toBe(412);
    const started = await patch(auth, full.id, start, etag);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: "IN_PROGRESS", revision: 2, completedAt: null, completedBy: null });
    const r2 = started.headers.get("etag")!;
    expect(r2).toMatch(/^"r2-/);
    expect((await patch(auth, full.id, start, etag)).status).toBe(412);
    // Nothing changes: no new revision.
    const same = await patch(auth, full.id, { status: "IN_PROGRESS", title: "Replace the left brake pad" }, r2);
    expect(same.body.revision).toBe(2);

    // Moves the lifecycle does not allow are 409s.
    expect(await patch(auth, full.id, { status: "OPEN" }, "*")).toMatchObject({
      status: 409,
      body: { error: "An IN_PROGRESS action cannot become OPEN; it may become DONE, CANCELLED" },
    });

    const done = await patch(auth, full.id, { status: "DONE", priority: "MEDIUM" }, '"r2"');
    expect(done.body).toMatchObject({ status: "DONE", priority: "MEDIUM", revision: 3, completedBy: { type: "api_key", id: keyId }, overdue: false });
    expect(Math.abs(Date.parse(done.body.completedAt) - Date.now())).toBeLessThan(60_000);
    expect(await patch(auth, full.id, { status: "CANCELLED" }, "*")).toMatchObject({
      status: 409,
      body: { error: "A DONE action cannot become CANCELLED: reopen it first (OPEN or IN_PROGRESS)" },
    });

    // Reopened: no longer complete (the audit and change logs keep who completed it).
    const reopened = await patch(auth, full.id, { status: "OPEN", dueAt: null, description: null }, '"r3"');
    expect(reopened.body).toMatchObject({ status: "OPEN", revision: 4, completedAt: null, completedBy: null, dueAt: null, description: null });
    expect((await patch(auth, full.id, { status: "CANCELLED" }, '"r4"')).body).toMatchObject({ status: "CANCELLED", completedAt: null, revision: 5 });
    expect(await patch(auth, full.id, { status: "DONE" }, '"r5"')).toMatchObject({
      status: 409,
      body: { error: "A CANCELLED action cannot become DONE: reopen it first (OPEN or IN_PROGRESS)" },
    });
    expect((await patch(auth, full.id, { status: "IN_PROGRESS" }, '"r5"')).body).toMatchObject({ status: "IN_PROGRESS", revision: 6 });
    expect(await filtered("status=IN_PROGRESS")).toEqual({ ids: [full.id], total: 1 });

    // Events in the transaction of each change; the audit log names the changed fields only.
    expect(await changesOf(full.id)).toEqual(["created", "updated", "updated", "completed", "updated", "updated", "updated"]);
    // Oldest first, by time: the list's own order compares its sequence numbers as text (9 after 10).
    const audit = (await get(auth, `/api/audit?resourceId=${full.id}`)).body.items.sort((x: { at: string }, y: { at: string }) => x.at.localeCompare(y.at));
    expect(audit.map((e: { action: string; changedFields: string[] }) => [e.action, e.changedFields])).toEqual([
      ["action.created", ["title", "description", "assigneeId", "dueAt", "priority", "inspectionId", "questionId"]],
      ["action.updated", ["status"]],
      ["action.updated", ["priority", "status"]],
      ["action.updated", ["description", "dueAt", "status"]],
      ["action.updated", ["status"]],
      ["action.updated", ["status"]],
    ]);
    expect(JSON.stringify(audit)).not.toContain("brake pad");
  });

  it("refuses bodies it cannot take with 400 {error, details}, naming each problem", async () => {
    const { t, inspectionId } = await withInspection();
    const other = await createTemplate(stack, t, auditTemplateBody(t, { name: "Other" }));
    const auth = key(t);
    const cases: [unknown, string, string[]][] = [
      [{}, "Invalid request body", ["title: Invalid input: expected string, received undefined"]],
      [{ title: "   " }, "Invalid request body", ["title: title is required"]],
      [{ title: "x".repeat(201) }, "Invalid request body", ["title: title must be at most 200 characters"]],
      [
        { title: "A", priority: "URGENT", dueAt: "tomorrow", color: "red" },
        "Invalid request body",
        ['Unrecognized key: "color"', "dueAt: dueAt must be an ISO 8601 date-time, e.g. 2026-03-31T17:00:00Z", "priority: must be one of LOW, MEDIUM, HIGH"],
      ],
      [{ title: "A", dueAt: "0000-01-01T00:00:00Z" }, "Invalid request body", ["dueAt: dueAt must fall in the years 1970 to 9999"]],
      [
        { title: "A", questionId: other.q.brakes!.id },
        "Invalid request body",
        ["questionId: questionId needs inspectionId: a question is one of an inspection's"],
      ],
      [{ title: "A", assigneeId: "nobody" }, "Corrective action validation failed", ["assigneeId 'nobody' is not a user of this organization"]],
      [
        { title: "A", inspectionId: "00000000-0000-4000-8000-000000000000" },
        "Corrective action validation failed",
        ["inspectionId '00000000-0000-4000-8000-000000000000' is not an inspection of this organization"],
      ],
      [
        { title: "A", inspectionId, questionId: other.q.brakes!.id },
        "Corrective action validation failed",
        [`questionId '${other.q.brakes!.id}' is not a question of the inspection's template (version 1)`],
      ],
      [[], "Invalid request body", ["Invalid input: expected object, received array"]],
    ];
    for (const [body, error, details] of cases) {
      const res = await post(auth, body);
      expect({ body, status: res.status, error: res.body.error, details: [...(res.body.details ?? [])].sort() }).toEqual({
        body,
        status: 400,
        error,
        details: [...details].sort(),
      });
    }
    const [disabled] = await stack.db.sql<
      { id: string }[]
    >`update users set disabled = true where id = ${(await inviteUser(stack.db.db, t.organization.id, "admin_cli", { email: `gone-${randomBytes(4).toString("hex")}@demo.example`, password: "not used here" })).user.id} returning id`;
    expect((await post(auth, { title: "A", assigneeId: disabled!.id })).body.details).toEqual([
      `assigneeId '${disabled!.id}' is a disabled user: assign the action to someone who can act on it`,
    ]);
    // A PATCH is checked the same way.
    const a = await created(auth, { title: "A" });
    expect(await patch(auth, a.id, { assigneeId: "nobody" }, "*")).toMatchObject({
      status: 400,
      body: { error: "Corrective action validation failed", details: ["assigneeId 'nobody' is not a user of this organization"] },
    });
    expect(await patch(auth, a.id, {}, "*")).toMatchObject({
      status: 400,
      body: { details: ["give at least one of title, description, assigneeId, dueAt, priority, status"] },
    });
    expect((await patch(auth, a.id, { inspectionId }, "*")).body.details).toEqual(['Unrecognized key: "inspectionId"']);
    expect(await changesOf(a.id)).toEqual(["created"]);
  });

  it("keeps every organization to its own: another's action is a 404, its users and inspections a 400", async () => {
    const { t: a, inspectionId: theirInspection } = await withInspection();
    const b = await stack.tenant();
    const mine = await created(key(a), { title: "A's action" });
    expect(await get(key(b), `/api/actions/${mine.id}`)).toMatchObject({ status: 404, body: { error: `Action ${mine.id} not found` } });
    expect((await patch(key(b), mine.id, { title: "taken" }, "*")).status).toBe(404);
    expect((await get(key(b), `/api/actions/not-a-uuid`)).status).toBe(404);
    expect((await get(key(b), "/api/actions")).body.actions).toEqual([]);
    expect((await get(key(b), `/api/actions?inspectionId=${theirInspection}`)).body.pagination.total).toBe(0);
    expect(await post(key(b), { title: "B", assigneeId: a.users.inspector.id })).toMatchObject({
      status: 400,
      body: { details: [`assigneeId '${a.users.inspector.id}' is not a user of this organization`] },
    });
    expect(await post(key(b), { title: "B", inspectionId: theirInspection })).toMatchObject({
      status: 400,
      body: { details: [`inspectionId '${theirInspection}' is not an inspection of this organization`] },
    });
    const bs = await created(key(b), { title: "B's" });
    expect((await patch(key(b), bs.id, { assigneeId: a.users.admin.id }, "*")).status).toBe(400);
    expect((await get(key(a), `/api/actions/${mine.id}`)).body.title).toBe("A's action");
  });

  it("scopes for keys; any user raises and reads; admins, the assignee and the creator change", async () => {
    const t = await stack.tenant();
    const reader = {
      bearer: (await createApiKey(stack.db.db, t.organization.id, "reader", undefined, undefined, ["actions:read", "inspections:write"])).apiKey,
    };
    const writer = { bearer: (await createApiKey(stack.db.db, t.organization.id, "writer", undefined, undefined, ["actions:write"])).apiKey };
    expect(await post(reader, { title: "x" })).toMatchObject({ status: 403, body: { error: "API key lacks the scope actions:write" } });
    const a = await created(writer, { title: "By a writer" });
    expect(await get(writer, `/api/actions/${a.id}`)).toMatchObject({ status: 403, body: { error: "API key lacks the scope actions:read" } });
    expect((await get(reader, `/api/actions/${a.id}`)).status).toBe(200);
    expect((await patch(reader, a.id, { title: "y" }, "*")).body).toEqual({ error: "API key lacks the scope actions:write" });
    expect((await patch(writer, a.id, { title: "Changed by a key" }, "*")).status).toBe(200);

    const other = { email: `other-${randomBytes(4).toString("hex")}@demo.example`, password: randomBytes(12).toString("base64url") };
    await inviteUser(stack.db.db, t.organization.id, "admin_cli", { ...other, name: "Other Inspector" });
    const [inspector, bystander, admin] = [
      { bearer: await userToken(stack, t.users.inspector) },
      { bearer: await userToken(stack, other) },
      { bearer: await userToken(stack, t.users.admin) },
    ];
    // The inspector raises one for the admin, and one for nobody.
    const theirs = await created(inspector, { title: "For the admin", assigneeId: t.users.admin.id });
    expect(theirs.createdBy).toEqual({ type: "user", id: t.users.inspector.id });
    expect((await get(bystander, `/api/actions/${theirs.id}`)).status).toBe(200);
    expect((await get(bystander, "/api/actions")).body.pagination.total).toBe(2);
    const refused = await patch(bystander, theirs.id, { status: "DONE" }, "*");
    expect(refused).toMatchObject({ status: 403, body: { error: "Only an administrator, the action's assignee or the user who created it may change it" } });
    expect((await patch(bystander, a.id, { status: "DONE" }, "*")).status).toBe(403);
    // The creator, the assignee and an admin may.
    expect((await patch(inspector, theirs.id, { priority: "HIGH" }, "*")).body.revision).toBe(2);
    const completed = await patch(admin, theirs.id, { status: "DONE" }, "*");
    expect(completed.body).toMatchObject({ status: "DONE", completedBy: { type: "user", id: t.users.admin.id } });
    // Handed to the bystander, who may change it from then on.
    expect((await patch(admin, a.id, { assigneeId: (await stack.db.sql`select id from users where email = ${other.email}`)[0]!.id }, "*")).status).toBe(200);
    expect((await patch(bystander, a.id, { status: "IN_PROGRESS" }, "*")).body).toMatchObject({ status: "IN_PROGRESS", revision: 4 });
  });

  it("sends action.* webhooks with the action as its endpoints answer it, to endpoints allowed to read actions", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const path = `/actions-${t.organization.id}`;
    const events = ["action.created", "action.updated", "action.completed", "action.overdue"];
    const noRead = { bearer: (await createApiKey(stack.db.db, t.organization.id, "hooks", undefined, undefined, ["webhooks:manage"])).apiKey };
    expect(await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events }, { auth: noRead })).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope actions:read, which action.created events need: they carry the action itself" },
    });
    const ep = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events }, { auth });
    expect(ep.status, ep.text).toBe(201);
    await receiver.configure(path, { secrets: [ep.body.secret] });

    const a = await created(auth, { title: "Fix the gate", assigneeId: t.users.inspector.id, dueAt: hourFromNow(1) });
    await patch(auth, a.id, { dueAt: "2021-06-01T00:00:00Z" }, '"r1"');
    const got = await until(
      "action.overdue received",
      () => receiver.received(path),
      (rs) => rs.some((r) => r.body.type === "action.overdue"),
    );
    const done = await patch(auth, a.id, { status: "DONE" }, "*");
    // Deliveries run as jobs on two workers: in any order (the completion's action.updated may come after its action.completed).
    const all = await until(
      "the five events received",
      () => receiver.received(path),
      (rs) => rs.length >= 5,
    );
    expect(all.map((r) => r.body.type).sort()).toEqual(["action.completed", "action.created", "action.overdue", "action.updated", "action.updated"]);
    for (const r of all) {
      expect(r.verified).toEqual([true]);
      expect(r.body.organizationId).toBe(t.organization.id);
      expect(Object.keys(r.body.data).sort()).toEqual(Object.keys(a).sort());
    }
    expect(all.find((r) => r.body.type === "action.created")!.body.data).toMatchObject({
      id: a.id,
      title: "Fix the gate",
      assignee: { id: t.users.inspector.id, email: t.users.inspector.email },
    });
    expect(got.find((r) => r.body.type === "action.overdue")!.body.data).toMatchObject({
      id: a.id,
      overdue: true,
      dueAt: "2021-06-01T00:00:00.000Z",
      status: "OPEN",
    });
    expect(all.find((r) => r.body.type === "action.completed")!.body.data).toEqual(done.body);
  });

  it("the feed of actions: every change, oldest first, with the action as it is now; keys need feeds:read and actions:read", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const a = await created(auth, { title: "First" });
    const b = await created(auth, { title: "Second" });
    await patch(auth, a.id, { status: "DONE" }, "*");
    const feed = await until(
      "action feed",
      async () => (await get(auth, "/api/feed/actions?limit=2")).body,
      (body) => body.items?.length === 2 && body.hasMore === true,
    );
    expect(feed.items.map((i: { id: string; change: string }) => [i.id, i.change])).toEqual([
      [a.id, "created"],
      [b.id, "created"],
    ]);
    expect(feed.items[0].resource).toEqual((await get(auth, `/api/actions/${a.id}`)).body);
    const rest = await until(
      "the rest of the feed",
      () => get(auth, `/api/feed/actions?cursor=${feed.nextCursor}`),
      (res) => res.body.items?.length === 2,
    );
    expect(rest.body.items.map((i: { id: string; change: string }) => [i.id, i.change])).toEqual([
      [a.id, "updated"],
      [a.id, "completed"],
    ]);
    const without = {
      bearer: (await createApiKey(stack.db.db, t.organization.id, "feeds only", undefined, undefined, ["feeds:read", "inspections:read"])).apiKey,
    };
    expect((await get(without, "/api/feed/actions")).body).toEqual({ error: "API key lacks the scope actions:read" });
    const userFeed = await get({ bearer: await userToken(stack, t.users.inspector) }, "/api/feed/actions");
    expect(userFeed.status).toBe(200);
  });

  it("sends action.overdue exactly once per action while two workers and the test sweep at once; a new dueAt or a reopen announces it again", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    // 600 actions that fall due together two seconds from now (written directly: the API would
    // take a while), and one far ahead.
    const ids = (
      await stack.db.sql<{ id: string }[]>`
      insert into corrective_actions (organization_id, title, due_at, created_by_type, created_by_id)
      select ${t.organization.id}, 'Overdue ' || n, now() + interval '2 seconds', 'admin_cli', null from generate_series(1, 600) n
      returning id`
    ).map((r) => r.id);
    const counts = async () =>
      await stack.db.sql<{ n: number; events: number }[]>`
        select count(*)::int as n, coalesce(sum((select count(*) from change_events c where c.resource_type = 'action' and c.resource_id = a.id and c.change = 'overdue')), 0)::int as events
        from corrective_actions a where a.organization_id = ${t.organization.id} and a.overdue_notified_at is not null`;
    // Four sweepers of the test process beside the two workers', in batches small enough to
    // overlap, sweeping without pause from before the due time until every action is announced:
    // at the due time they race the workers' next sweeps (and one another) for the same rows.
    const deadline = Date.now() + 60_000;
    const sweeping = Promise.all(
      Array.from({ length: 4 }, async () => {
        let n = 0;
        while (Date.now() < deadline && (await counts())[0]!.n < 600) {
          const moved = await announceOverdueActions(stack.db.db, 25);
          n += moved;
          if (!moved) await new Promise((r) => setTimeout(r, 10));
        }
        return n;
      }),
    );
    const ahead = await created(auth, { title: "Not yet", dueAt: hourFromNow(24) });
    const sweeps = await sweeping;
    const [done] = await until("every action announced", counts, (rows) => rows[0]!.n === 600);
    expect(done).toEqual({ n: 600, events: 600 });
    // The test's sweepers took part: they sweep every few milliseconds, the workers once a second,
    // and rows a worker's batch holds locked are skipped, not waited for.
    expect(sweeps.reduce((x, y) => x + y, 0)).toBeGreaterThan(0);
    const per = await stack.db.sql<{ times: number }[]>`
      select count(*)::int as times from change_events where organization_id = ${t.organization.id} and resource_type = 'action' and change = 'overdue' group by resource_id`;
    expect(per.length).toBe(600);
    expect(per.every((r) => r.times === 1)).toBe(true);
    expect((await get(auth, "/api/actions?overdue=true&limit=1")).body.pagination.total).toBe(600);

    // A few more sweeps later: still once each, and the action not yet due is left alone.
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await counts())[0]).toEqual({ n: 600, events: 600 });
    expect(await changesOf(ahead.id)).toEqual(["created"]);

    // A new due date that has passed announces it again; so does reopening.
    const one = ids[0]!;
    await patch(auth, one, { dueAt: "2022-01-01T00:00:00Z" }, "*");
    await until(
      "announced after the new dueAt",
      () => changesOf(one),
      (cs) => cs.filter((c) => c === "overdue").length === 2,
    );
    await patch(auth, one, { status: "DONE" }, "*");
    expect((await get(auth, `/api/actions/${one}`)).body.overdue).toBe(false);
    await patch(auth, one, { status: "IN_PROGRESS" }, "*");
    const again = await until(
      "announced after reopening",
      () => changesOf(one),
      (cs) => cs.filter((c) => c === "overdue").length === 3,
    );
    expect(again).toEqual(["overdue", "updated", "overdue", "updated", "completed", "updated", "overdue"]);
    // The overdue flag is part of the ETag: a cached copy from before it passed is not "not modified".
    const soon = await created(auth, { title: "Due in a moment", dueAt: new Date(Date.now() + 1_500).toISOString() });
    const before = (await get(auth, `/api/actions/${soon.id}`)).headers.get("etag")!;
    await until(
      "overdue",
      async () => (await get(auth, `/api/actions/${soon.id}`)).body.overdue,
      (o) => o === true,
    );
    const after = await get(auth, `/api/actions/${soon.id}`, { "if-none-match": before });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
    expect(after.headers.get("etag")!.slice(0, 4)).toBe(before.slice(0, 4));
  });
});
