import { describe, expect, it } from "vitest";
import { deliveries, key, useDirectoryStack } from "../fixtures/directory.fixtures.ts";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { importBody, importOk, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { GROUP, scimCaller } from "../fixtures/scim.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Sites, groups and roles over HTTP (docs/organization-administration.md): the life of each,
 * through the real API and a worker: create, list with filters, read with an ETag, change with
 * If-Match, archive (and the HR sync's view of an archived one), delete, members, webhooks.
 */

const ctx = useDirectoryStack({ receiver: true });

describe("sites", () => {
  it("create, list with filters, read with an ETag, move under a region, archive, restore, delete", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const region = await ctx.stack.http.post("/api/sites", { name: "Region West", code: "R-WEST" }, { auth });
    expect(region.status, region.text).toBe(201);
    expect(region.body).toMatchObject({ name: "Region West", code: "R-WEST", address: null, latitude: null, parentSiteId: null, archived: false, revision: 1 });
    const site = await ctx.stack.http.post(
      "/api/sites",
      { name: "Rotterdam warehouse", code: "NL-RTM-01", address: "Waalhaven 12", latitude: 51.8853, longitude: 4.4281, parentSiteId: region.body.id },
      { auth },
    );
    expect(site.status, site.text).toBe(201);
    expect(site.headers.get("etag")).toMatch(/^"r1-[0-9a-f]{8}"$/);

    const all = await ctx.stack.http.get("/api/sites", { auth });
    expect(all.body.sites.map((s: any) => s.code)).toEqual(["MAIN", "NL-RTM-01", "NORTH", "R-WEST"]);
    expect(all.body.pagination).toEqual({ total: 4, limit: 50, offset: 0, hasMore: false });
    expect((await ctx.stack.http.get("/api/sites?namePrefix=rott", { auth })).body.sites.map((s: any) => s.id)).toEqual([site.body.id]);
    expect((await ctx.stack.http.get("/api/sites?code=R-WEST", { auth })).body.sites.map((s: any) => s.id)).toEqual([region.body.id]);
    expect((await ctx.stack.http.get(`/api/sites?parentSiteId=${region.body.id}`, { auth })).body.sites.map((s: any) => s.id)).toEqual([site.body.id]);
    const since = encodeURIComponent(site.body.createdAt);
    expect((await ctx.stack.http.get(`/api/sites?updatedSince=${since}`, { auth })).body.sites.map((s: any) => s.id)).toEqual([site.body.id]);

    const read = await ctx.stack.http.get(`/api/sites/${site.body.id}`, { auth });
    expect(read.body).toEqual(site.body);
    expect((await ctx.stack.http.get(`/api/sites/${site.body.id}`, { auth, headers: { "if-none-match": read.headers.get("etag")! } })).status).toBe(304);

    const moved = await ctx.stack.http.patch(
      `/api/sites/${site.body.id}`,
      { name: "Rotterdam DC", parentSiteId: null },
      { auth, headers: { "if-match": read.headers.get("etag")! } },
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ name: "Rotterdam DC", parentSiteId: null, revision: 2 });

    // A region with a site below it cannot be deleted; after the move it can.
    const del = await ctx.stack.http.request("DELETE", `/api/sites/${region.body.id}`, { auth });
    expect(del.status, del.text).toBe(204);
    expect((await ctx.stack.http.get(`/api/sites/${region.body.id}`, { auth })).status).toBe(404);

    const archived = await ctx.stack.http.patch(`/api/sites/${site.body.id}`, { archived: true }, { auth, headers: { "if-match": '"r2"' } });
    expect(archived.body).toMatchObject({ archived: true, revision: 3 });
    expect(archived.body.archivedAt).not.toBeNull();
    expect((await ctx.stack.http.get("/api/sites", { auth })).body.sites.map((s: any) => s.code)).toEqual(["MAIN", "NORTH"]);
    expect((await ctx.stack.http.get("/api/sites?includeArchived=true", { auth })).body.sites.map((s: any) => s.code)).toEqual(["MAIN", "NL-RTM-01", "NORTH"]);
    const restored = await ctx.stack.http.patch(`/api/sites/${site.body.id}`, { archived: false }, { auth, headers: { "if-match": "*" } });
    expect(restored.body).toMatchObject({ archived: false, archivedAt: null, revision: 4 });

    const audit = await ctx.stack.db.sql<
      { action: string }[]
    >`select action from audit_log where organization_id = ${t.organization.id} and resource_id = ${site.body.id} order by created_at, id`;
    expect(audit.map((a) => a.action).sort()).toEqual(["site.archived", "site.created", "site.updated", "site.updated"]);
  });

  it("a site with employees or inspections answers 409 on DELETE naming what refers to it; archived, the HR sync treats it as missing", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const site = (await ctx.stack.http.post("/api/sites", { name: "Depot", code: "DEP" }, { auth })).body;
    const api = await syncCaller(ctx.stack, t);
    const e = uniq("S");
    const first = await api.sync([{ externalEmployeeId: e.id, email: e.email, sites: [{ id: site.id }] }]);
    expect(first.errors).toEqual([]);
    await importOk(ctx.stack, t, importBody(t, await publishedAudit(ctx.stack, t), { siteId: site.id }));
    const del = await ctx.stack.http.request("DELETE", `/api/sites/${site.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.error).toBe(
      `Site 'DEP' cannot be deleted: it has 1 assigned employee, 1 inspection. Archive it instead (PATCH /api/sites/${site.id} with {"archived": true})`,
    );
    expect(del.body.details).toEqual(["1 assigned employee", "1 inspection"]);

    await ctx.stack.http.patch(`/api/sites/${site.id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    const e2 = uniq("S");
    const again = await api.sync([{ externalEmployeeId: e2.id, email: e2.email, sites: [{ id: site.id }] }]);
    expect(again.results[0].warnings).toEqual([`Site with id '${site.id}' not found, skipped`]);
  });
});

describe("roles", () => {
  it("a new organization has the spec's known roles; create, rename, archive (the HR sync then skips it), delete only when nobody holds it", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const list = await ctx.stack.http.get("/api/roles", { auth });
    expect(list.body.roles.map((r: any) => r.name).sort()).toEqual(["FIELD_TECH", "admin", "inspector", "site_manager"]);
    const role = await ctx.stack.http.post("/api/roles", { name: "crane_operator" }, { auth });
    expect(role.status, role.text).toBe(201);
    expect(role.body).toMatchObject({ name: "crane_operator", holders: 0, archived: false, revision: 1 });

    const api = await syncCaller(ctx.stack, t);
    const e = uniq("R");
    expect((await api.sync([{ externalEmployeeId: e.id, email: e.email, roles: ["crane_operator"] }])).errors).toEqual([]);
    expect((await ctx.stack.http.get(`/api/roles/${role.body.id}`, { auth })).body.holders).toBe(1);
    const del = await ctx.stack.http.request("DELETE", `/api/roles/${role.body.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.error).toBe(
      `Role 'crane_operator' cannot be deleted: 1 employee holds it. Archive it instead (PATCH /api/roles/${role.body.id} with {"archived": true})`,
    );

    const archived = await ctx.stack.http.patch(`/api/roles/${role.body.id}`, { archived: true }, { auth, headers: { "if-match": '"r1"' } });
    expect(archived.body).toMatchObject({ archived: true, revision: 2 });
    const e2 = uniq("R");
    const sync = await api.sync([{ externalEmployeeId: e2.id, email: e2.email, roles: ["crane_operator"] }]);
    expect(sync.results[0].warnings).toEqual(["Role 'crane_operator' not found, skipped"]);

    const spare = (await ctx.stack.http.post("/api/roles", { name: "spare" }, { auth })).body;
    const renamed = await ctx.stack.http.patch(`/api/roles/${spare.id}`, { name: "spare_parts" }, { auth, headers: { "if-match": '"r1"' } });
    expect(renamed.body).toMatchObject({ name: "spare_parts", revision: 2 });
    expect((await ctx.stack.http.request("DELETE", `/api/roles/${spare.id}`, { auth })).status).toBe(204);
  });
});

describe("groups and members", () => {
  it("create, add and remove members (employees), archive, delete only without members", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const group = await ctx.stack.http.post("/api/groups", { name: "Night shift", externalGroupId: "HR-GRP-42" }, { auth });
    expect(group.status, group.text).toBe(201);
    expect(group.body).toMatchObject({ name: "Night shift", externalGroupId: "HR-GRP-42", memberCount: 0, revision: 1 });
    expect((await ctx.stack.http.get("/api/groups?externalGroupId=HR-GRP-42", { auth })).body.groups.map((g: any) => g.id)).toEqual([group.body.id]);

    const api = await syncCaller(ctx.stack, t);
    const e = uniq("G");
    const synced = await api.sync([{ externalEmployeeId: e.id, email: e.email, firstName: "Ada", lastName: "Lovelace" }]);
    const employeeId = synced.results[0].employeeId;
    const added = await ctx.stack.http.request("PUT", `/api/groups/${group.body.id}/members/${employeeId}`, { auth, body: { memberRole: "lead" } });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({ employeeId, externalEmployeeId: e.id, email: e.email, memberRole: "lead" });
    const members = await ctx.stack.http.get(`/api/groups/${group.body.id}/members`, { auth });
    expect(members.body).toEqual({ members: [added.body], pagination: { total: 1, limit: 50, offset: 0, hasMore: false } });
    expect((await ctx.stack.http.get(`/api/groups/${group.body.id}`, { auth })).body).toMatchObject({ memberCount: 1, revision: 2 });

    const del = await ctx.stack.http.request("DELETE", `/api/groups/${group.body.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.details).toEqual(["1 employee is a member"]);

    const archived = await ctx.stack.http.patch(`/api/groups/${group.body.id}`, { archived: true }, { auth, headers: { "if-match": '"r2"' } });
    expect(archived.body).toMatchObject({ archived: true, revision: 3 });
    const e2 = uniq("G");
    const sync = await api.sync([{ externalEmployeeId: e2.id, email: e2.email, groups: [{ externalGroupId: "HR-GRP-42" }] }]);
    expect(sync.results[0].warnings).toEqual(["Group 'HR-GRP-42' not found, skipped"]);

    expect((await ctx.stack.http.request("DELETE", `/api/groups/${group.body.id}/members/${employeeId}`, { auth })).status).toBe(204);
    expect((await ctx.stack.http.request("DELETE", `/api/groups/${group.body.id}`, { auth })).status).toBe(204);
  });

  it("a group SCIM or the seed made is the same group: the admin changes it here", async () => {
    const t = await ctx.stack.tenant();
    const admin = { bearer: await userToken(ctx.stack, t.users.admin) };
    const seeded = (await ctx.stack.http.get("/api/groups?namePrefix=safety", { auth: admin })).body.groups[0];
    expect(seeded).toMatchObject({ id: t.groups[1]!.id, name: "Safety Team", externalGroupId: "grp-safety" });
    const changed = await ctx.stack.http.patch(`/api/groups/${seeded.id}`, { name: "Safety" }, { auth: admin, headers: { "if-match": '"r1"' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ name: "Safety", revision: 2 });

    // A group SCIM creates and renames: listed here, its revision moves, and it sends group.* like ours.
    const scim = await scimCaller(ctx.stack, t);
    const made = await scim.call("POST", "/Groups", { schemas: [GROUP], displayName: "Provisioned" });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as string;
    expect((await ctx.stack.http.get(`/api/groups/${id}`, { auth: admin })).body).toMatchObject({ name: "Provisioned", revision: 1 });
    const renamed = await scim.call("PATCH", `/Groups/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "displayName", value: "Provisioned 2" }],
    });
    expect([200, 204]).toContain(renamed.status);
    expect((await ctx.stack.http.get(`/api/groups/${id}`, { auth: admin })).body).toMatchObject({ name: "Provisioned 2", revision: 2 });
    const changes = await ctx.stack.db.sql<
      { change: string }[]
    >`select change from change_events where resource_type = 'group' and resource_id = ${id} order by xid, seq`;
    expect(changes.map((c) => c.change)).toEqual(["created", "updated"]);
  });
});

describe("webhooks", () => {
  it("site.*, group.* and role.* events carry the row as GET answers it; a deleted one its id", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const events = ["site.created", "site.updated", "site.archived", "site.deleted", "role.created", "group.created"];
    let site: any, role: any, group: any;
    const got = await deliveries(ctx, t, events, async () => {
      site = (await ctx.stack.http.post("/api/sites", { name: "Hook site", code: "HOOK" }, { auth })).body;
      await ctx.stack.http.patch(`/api/sites/${site.id}`, { address: "Quay 1" }, { auth, headers: { "if-match": "*" } });
      await ctx.stack.http.patch(`/api/sites/${site.id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
      await ctx.stack.http.request("DELETE", `/api/sites/${site.id}`, { auth });
      role = (await ctx.stack.http.post("/api/roles", { name: "hooked" }, { auth })).body;
      group = (await ctx.stack.http.post("/api/groups", { name: "Hooked" }, { auth })).body;
    });
    expect(got.map((r) => r.body.type).sort()).toEqual(["group.created", "role.created", "site.archived", "site.created", "site.deleted", "site.updated"]);
    expect(got.find((r) => r.body.type === "site.deleted")!.body.data).toEqual({ id: site.id });
    expect(got.find((r) => r.body.type === "role.created")!.body.data).toEqual(role);
    expect(got.find((r) => r.body.type === "group.created")!.body.data).toEqual(group);
  });
});
