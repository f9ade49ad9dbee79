import { describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { useDirectoryStack } from "../fixtures/directory.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Who may read and change the directory (docs/organization-administration.md): every user reads,
 * admin users change; API keys by directory:read / directory:write; another organization's ids
 * are 404.
 */

const ctx = useDirectoryStack();

const keyWith = async (t: DemoSeed, scopes: ("directory:read" | "directory:write")[]) => ({
  bearer: (await createApiKey(ctx.stack.db.db, t.organization.id, "dir", undefined, undefined, scopes)).apiKey,
});

describe("directory security", () => {
  it("API keys need directory:read to read and directory:write to change, and the 403 names the scope", async () => {
    const t = await ctx.stack.tenant();
    const reader = await keyWith(t, ["directory:read"]);
    const writer = await keyWith(t, ["directory:write"]);
    expect((await ctx.stack.http.get("/api/sites", { auth: reader })).status).toBe(200);
    const noWrite = await ctx.stack.http.post("/api/sites", { name: "X", code: "X" }, { auth: reader });
    expect(noWrite.status).toBe(403);
    expect(noWrite.body.error).toContain("directory:write");
    const noRead = await ctx.stack.http.get("/api/roles", { auth: writer });
    expect(noRead.status).toBe(403);
    expect(noRead.body.error).toContain("directory:read");
    expect((await ctx.stack.http.post("/api/roles", { name: "by_writer" }, { auth: writer })).status).toBe(201);
  });

  it("users: every user reads, only admins change", async () => {
    const t = await ctx.stack.tenant();
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    const admin = { bearer: await userToken(ctx.stack, t.users.admin) };
    expect((await ctx.stack.http.get("/api/groups", { auth: inspector })).status).toBe(200);
    const refused = await ctx.stack.http.post("/api/groups", { name: "Mine" }, { auth: inspector });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only admin users can change sites, groups, roles, response and asset types");
    expect((await ctx.stack.http.request("DELETE", `/api/sites/${t.sites[0]!.id}`, { auth: inspector })).status).toBe(403);
    expect((await ctx.stack.http.post("/api/groups", { name: "Mine" }, { auth: admin })).status).toBe(201);
  });

  it("another organization's sites, groups and roles are 404 and never listed", async () => {
    const [a, b] = [await ctx.stack.tenant(), await ctx.stack.tenant()];
    const auth = { bearer: a.apiKey };
    const bRole = (await ctx.stack.http.get("/api/roles", { auth: { bearer: b.apiKey } })).body.roles[0].id;
    for (const path of [`/api/sites/${b.sites[0]!.id}`, `/api/groups/${b.groups[0]!.id}`, `/api/roles/${bRole}`, `/api/groups/${b.groups[0]!.id}/members`]) {
      expect((await ctx.stack.http.get(path, { auth })).status, path).toBe(404);
    }
    expect((await ctx.stack.http.patch(`/api/sites/${b.sites[0]!.id}`, { name: "mine" }, { auth, headers: { "if-match": "*" } })).status).toBe(404);
    expect((await ctx.stack.http.request("DELETE", `/api/roles/${bRole}`, { auth })).status).toBe(404);
    const parent = await ctx.stack.http.post("/api/sites", { name: "X", code: "X", parentSiteId: b.sites[0]!.id }, { auth });
    expect(parent.status).toBe(400);
    const listed = (await ctx.stack.http.get("/api/sites?includeArchived=true", { auth })).body.sites.map((s: any) => s.id);
    expect(listed).not.toContain(b.sites[0]!.id);
  });
});
