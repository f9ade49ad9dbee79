import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { key, useDirectoryStack } from "../fixtures/directory.fixtures.ts";

/**
 * Bad input to /api/sites, /api/groups and /api/roles (docs/organization-administration.md):
 * 400 naming the field, 409 for a taken code or name, 412/428 for If-Match, 400 for a cycle of
 * regions; never a 500.
 */

const ctx = useDirectoryStack();

const root = fileURLToPath(new URL("../../../../", import.meta.url));

describe("directory errors", () => {
  it("400 names the field", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const cases: [string, unknown, string][] = [
      ["/api/sites", { code: "X" }, "name"],
      ["/api/sites", { name: "X", code: "Y", latitude: 91, longitude: 0 }, "latitude must be between -90 and 90"],
      ["/api/sites", { name: "X", code: "Y", latitude: 10, longitude: -181 }, "longitude must be between -180 and 180"],
      ["/api/sites", { name: "X", code: "Y", latitude: 10 }, "latitude needs longitude"],
      ["/api/sites", { name: "X", code: "Y", colour: "red" }, "colour"],
      ["/api/groups", { name: "" }, "name is required"],
      ["/api/roles", { name: 42 }, "name"],
    ];
    for (const [path, body, says] of cases) {
      const res = await ctx.stack.http.post(path, body, { auth });
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
      expect(JSON.stringify(res.body)).toContain(says);
    }
    const res = await ctx.stack.http.post("/api/sites", { name: "X", code: "Y", parentSiteId: "00000000-0000-4000-8000-000000000000" }, { auth });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(["parentSiteId '00000000-0000-4000-8000-000000000000' is not a site of this organization"]);
    // An empty parent is not "no parent" (that is null): it names no site (the fuzz run found a 500 here).
    const empty = await ctx.stack.http.post("/api/sites", { name: "X", code: "Y", parentSiteId: "" }, { auth });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body.details).toEqual(["parentSiteId '' is not a site of this organization"]);
    expect((await ctx.stack.http.get("/api/sites?updatedSince=yesterday", { auth })).status).toBe(400);
    expect((await ctx.stack.http.get("/api/sites?includeArchived=maybe", { auth })).status).toBe(400);
  });

  it("409 for a taken code or name, archived ones included", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const dup = await ctx.stack.http.post("/api/sites", { name: "Again", code: "MAIN" }, { auth });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("A site with code 'MAIN' already exists in this organization (archived sites keep their code)");
    expect((await ctx.stack.http.post("/api/roles", { name: "inspector" }, { auth })).status).toBe(409);
    const g = await ctx.stack.http.post("/api/groups", { name: "Other", externalGroupId: "grp-safety" }, { auth });
    expect(g.status).toBe(409);
    expect(g.body.error).toBe("A group with externalGroupId 'grp-safety' already exists in this organization");
    const site = (await ctx.stack.http.post("/api/sites", { name: "B", code: "B" }, { auth })).body;
    const moved = await ctx.stack.http.patch(`/api/sites/${site.id}`, { code: "NORTH" }, { auth, headers: { "if-match": '"r1"' } });
    expect(moved.status).toBe(409);
  });

  it("If-Match: 428 without it, 412 with an old revision; a region cannot sit below itself", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const a = (await ctx.stack.http.post("/api/sites", { name: "A", code: "A" }, { auth })).body;
    const b = (await ctx.stack.http.post("/api/sites", { name: "B", code: "B", parentSiteId: a.id }, { auth })).body;
    expect((await ctx.stack.http.patch(`/api/sites/${a.id}`, { name: "A2" }, { auth })).status).toBe(428);
    expect((await ctx.stack.http.patch(`/api/sites/${a.id}`, { name: "A2" }, { auth, headers: { "if-match": '"r1"' } })).status).toBe(200);
    const stale = await ctx.stack.http.patch(`/api/sites/${a.id}`, { name: "A3" }, { auth, headers: { "if-match": '"r1"' } });
    expect(stale.status).toBe(412);
    const cycle = await ctx.stack.http.patch(`/api/sites/${a.id}`, { parentSiteId: b.id }, { auth, headers: { "if-match": "*" } });
    expect(cycle.status).toBe(400);
    expect(cycle.body.details).toEqual([`parentSiteId '${b.id}' is this site or one below it: a site cannot be its own region`]);
    const self = await ctx.stack.http.patch(`/api/sites/${a.id}`, { parentSiteId: a.id }, { auth, headers: { "if-match": "*" } });
    expect(self.status).toBe(400);
    const empty = await ctx.stack.http.patch(`/api/sites/${a.id}`, { parentSiteId: "" }, { auth, headers: { "if-match": "*" } });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body.details).toEqual(["parentSiteId '' is not a site of this organization"]);
    const blocked = await ctx.stack.http.request("DELETE", `/api/sites/${a.id}`, { auth });
    expect(blocked.status).toBe(409);
    expect(blocked.body.details).toEqual(["1 site below it"]);
  });

  it("archived groups take no new members; unknown employees and non-members are 404", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const g = t.groups[0]!.id;
    const nobody = "00000000-0000-4000-8000-000000000000";
    expect((await ctx.stack.http.request("PUT", `/api/groups/${g}/members/${nobody}`, { auth, body: {} })).status).toBe(404);
    expect((await ctx.stack.http.request("DELETE", `/api/groups/${g}/members/${nobody}`, { auth })).status).toBe(404);
    await ctx.stack.http.patch(`/api/groups/${g}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    const res = await ctx.stack.http.request("PUT", `/api/groups/${g}/members/${nobody}`, { auth, body: {} });
    expect(res.status).toBe(409);
  });

  it("the admin CLI's create-site checks as POST /api/sites does, and its site sends the same event", async () => {
    const t = await ctx.stack.tenant();
    const admin = (...args: string[]) =>
      spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: ctx.stack.env.DATABASE_URL, REDIS_URL: ctx.stack.env.REDIS_URL },
      });
    const org = ["--org", t.organization.id];
    const taken = admin("create-site", ...org, "--name", "Again", "--code", "MAIN");
    expect(taken.status).toBe(1);
    expect(taken.stderr.trim()).toBe("Error: A site with code 'MAIN' already exists in this organization (archived sites keep their code)");
    const far = admin("create-site", ...org, "--name", "Far", "--code", "FAR", "--latitude", "91", "--longitude", "0");
    expect(far.status).toBe(1);
    expect(far.stderr).toContain("latitude: latitude must be between -90 and 90");
    const made = admin("create-site", ...org, "--name", "Antwerp yard", "--code", "BE-ANR-01", "--latitude", "51.2637", "--longitude", "4.3996", "--json");
    expect(made.status, made.stderr).toBe(0);
    const site = JSON.parse(made.stdout);
    expect(site).toMatchObject({ code: "BE-ANR-01", latitude: 51.2637, longitude: 4.3996, revision: 1 });
    const [change] = await ctx.stack.db.sql<{ change: string }[]>`select change from change_events where resource_type = 'site' and resource_id = ${site.id}`;
    expect(change).toEqual({ change: "created" });
    const [audit] = await ctx.stack.db.sql<{ action: string; actor_type: string }[]>`select action, actor_type from audit_log where resource_id = ${site.id}`;
    expect(audit).toEqual({ action: "site.created", actor_type: "admin_cli" });

    // list sites reads with the service of GET /api/sites, archived sites included.
    await ctx.stack.http.patch(`/api/sites/${site.id}`, { archived: true }, { auth: { bearer: t.apiKey }, headers: { "if-match": "*" } });
    const listed = admin("list", "sites", ...org, "--json");
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { id: site.id, name: "Antwerp yard", code: "BE-ANR-01", archived: true },
      ...t.sites.map((s) => ({ ...s, archived: false })),
    ]);
  });
});
