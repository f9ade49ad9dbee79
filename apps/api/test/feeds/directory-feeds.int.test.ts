import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, until, type Stack } from "@insp/testing";
import { syncCaller, syncToken, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { drainFeed } from "../fixtures/feeds.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * The feeds of the directory and of users (docs/integrations.md, Change feeds): /api/feed/sites,
 * groups, roles, response-types, asset-types and users, with the same cursor rules as the other
 * feeds, each item with the row as its GET answers it now, and the credentials of the row's list.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

type Auth = { bearer: string };

/** Reads a feed to its current end from `cursor`, three items a page. */
const drain = (auth: Auth, path: string, cursor?: string) => drainFeed((p) => stack.http.get(p, { auth }), path, cursor, 3);

/** The feed's items of the ids given, once every one of `n` changes is visible. */
const changesOf = async (auth: Auth, path: string, ids: string[], n: number, cursor?: string) =>
  (
    await until(
      path,
      () => drain(auth, path, cursor),
      (r) => r.items.filter((i) => ids.includes(i.id)).length >= n,
    )
  ).items.filter((i) => ids.includes(i.id));

const key = (t: DemoSeed): Auth => ({ bearer: t.apiKey });
const any = (auth: Auth) => ({ auth, headers: { "if-match": "*" } });

describe("directory feeds", () => {
  it("sites: created, updated, archived and deleted, oldest first, each with the site as GET answers it now (null once deleted)", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    // The demo's sites are in it from the start: made by the same functions as POST /api/sites.
    const start = await changesOf(
      auth,
      "/api/feed/sites",
      t.sites.map((s) => s.id),
      2,
    );
    expect(start.map((i) => [i.id, i.change])).toEqual(t.sites.map((s) => [s.id, "created"]));

    const kept = (await stack.http.post("/api/sites", { name: "Feed depot", code: "FEED-1" }, { auth })).body;
    await stack.http.patch(`/api/sites/${kept.id}`, { address: "Dock 4" }, any(auth));
    const gone = (await stack.http.post("/api/sites", { name: "Feed shed", code: "FEED-2" }, { auth })).body;
    await stack.http.patch(`/api/sites/${gone.id}`, { archived: true }, any(auth));
    expect((await stack.http.request("DELETE", `/api/sites/${gone.id}`, { auth })).status).toBe(204);
    const items = await changesOf(auth, "/api/feed/sites", [kept.id, gone.id], 5);
    expect(items.map((i) => [i.id, i.change])).toEqual([
      [kept.id, "created"],
      [kept.id, "updated"],
      [gone.id, "created"],
      [gone.id, "archived"],
      [gone.id, "deleted"],
    ]);
    const now = (await stack.http.get(`/api/sites/${kept.id}`, { auth })).body;
    expect(items[0]!.resource).toEqual(now);
    expect(items[1]!.resource).toMatchObject({ address: "Dock 4", revision: 2 });
    expect(items.filter((i) => i.id === gone.id).map((i) => i.resource)).toEqual([null, null, null]);
  });

  it("groups (a member added is an update), roles, response types, asset types and assets, each with its row", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const group = (await stack.http.post("/api/groups", { name: "Feed crew" }, { auth })).body;
    const api = await syncCaller(stack, t);
    const e = uniq("FD");
    const employeeId = (await api.sync([{ externalEmployeeId: e.id, email: e.email }])).results[0].employeeId;
    expect((await stack.http.request("PUT", `/api/groups/${group.id}/members/${employeeId}`, { auth, body: {} })).status).toBe(200);
    const groups = await changesOf(auth, "/api/feed/groups", [group.id], 2);
    expect(groups.map((i) => i.change)).toEqual(["created", "updated"]);
    expect(groups[1]!.resource).toEqual((await stack.http.get(`/api/groups/${group.id}`, { auth })).body);
    expect(groups[1]!.resource.memberCount).toBe(1);

    for (const [path, feed, body] of [
      ["/api/roles", "/api/feed/roles", { name: "feed_role" }],
      ["/api/response-types", "/api/feed/response-types", { name: "Feed answer", inputType: "SELECT", options: [{ label: "Ok", value: "ok" }] }],
      ["/api/asset-types", "/api/feed/asset-types", { name: "Feed pump", fields: [{ name: "serial", type: "text" }] }],
    ] as const) {
      const made = await stack.http.post(path, body, { auth });
      expect(made.status, made.text).toBe(201);
      await stack.http.patch(`${path}/${made.body.id}`, { archived: true }, any(auth));
      const items = await changesOf(auth, feed, [made.body.id], 2);
      expect(
        items.map((i) => i.change),
        feed,
      ).toEqual(["created", "archived"]);
      expect(items[0]!.resource, feed).toEqual((await stack.http.get(`${path}/${made.body.id}`, { auth })).body);
    }
    // An asset (of a type): created then retired, each with the asset as GET /api/assets/{id} answers it.
    const pumpType = (await stack.http.post("/api/asset-types", { name: "Feed valve", fields: [{ name: "serial", type: "text" }] }, { auth })).body;
    const asset = await stack.http.post("/api/assets", { name: "Valve 1", code: `FV-${t.organization.id}`, assetTypeId: pumpType.id }, { auth });
    expect(asset.status, asset.text).toBe(201);
    expect((await stack.http.patch(`/api/assets/${asset.body.id}`, { status: "RETIRED" }, any(auth))).status).toBe(200);
    const assetItems = await changesOf(auth, "/api/feed/assets", [asset.body.id], 2);
    expect(assetItems.map((i) => i.change)).toEqual(["created", "updated"]);
    expect(assetItems[1]!.resource).toEqual((await stack.http.get(`/api/assets/${asset.body.id}`, { auth })).body);
    expect(assetItems[1]!.resource.status).toBe("RETIRED");
  });

  it("users: the demo's users, then invited, renamed, disabled and enabled, each with the user as GET answers it (never a password)", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const demo = [t.users.admin.id, t.users.inspector.id];
    // The demo users are made by the same function as POST /api/users: created, in the feed.
    expect((await changesOf(auth, "/api/feed/users", demo, 2)).map((i) => [i.id, i.change])).toEqual(demo.map((id) => [id, "created"]));
    const u = (await stack.http.post("/api/users", { email: `feed-${t.organization.id}@example.test`, name: "Fee D" }, { auth })).body;
    await stack.http.patch(`/api/users/${u.id}`, { name: "Fee Ds" }, any(auth));
    await stack.http.patch(`/api/users/${u.id}`, { disabled: true }, any(auth));
    await stack.http.patch(`/api/users/${u.id}`, { disabled: false }, any(auth));
    const items = await changesOf(auth, "/api/feed/users", [u.id], 4);
    expect(items.map((i) => i.change)).toEqual(["created", "updated", "disabled", "enabled"]);
    expect(items[0]!.resource).toEqual((await stack.http.get(`/api/users/${u.id}`, { auth })).body);
    expect(items[0]!.resource).toMatchObject({ name: "Fee Ds", disabled: false, managedByHrSync: false });
    expect(JSON.stringify(items)).not.toMatch(/password_?hash|passwordHash/i);
    // An admin user's token reads it too.
    const admin = { bearer: await userToken(stack, t.users.admin) };
    expect((await stack.http.get("/api/feed/users", { auth: admin })).status).toBe(200);
  });

  it("who may read them: every user and directory:read keys the directory's, admins and users:manage keys the users'; each with feeds:read; only the caller's organization", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const org = t.organization.id;
    const keyWith = async (scopes: Parameters<typeof createApiKey>[5]) => ({
      bearer: (await createApiKey(stack.db.db, org, "feed key", undefined, undefined, scopes)).apiKey,
    });
    const inspector = { bearer: await userToken(stack, t.users.inspector) };
    expect((await stack.http.get("/api/feed/sites", { auth: inspector })).status).toBe(200);
    expect(await stack.http.get("/api/feed/users", { auth: inspector })).toMatchObject({
      status: 403,
      body: { error: "Only admin users can follow the users feed" },
    });

    const directoryOnly = await keyWith(["directory:read"]);
    expect((await stack.http.get("/api/feed/roles", { auth: directoryOnly })).body).toEqual({ error: "API key lacks the scope feeds:read" });
    const feedsOnly = await keyWith(["feeds:read"]);
    expect((await stack.http.get("/api/feed/groups", { auth: feedsOnly })).body).toEqual({ error: "API key lacks the scope directory:read" });
    const reader = await keyWith(["feeds:read", "directory:read"]);
    for (const noun of ["sites", "groups", "roles", "response-types", "asset-types", "assets"])
      expect((await stack.http.get(`/api/feed/${noun}`, { auth: reader })).status, noun).toBe(200);
    expect((await stack.http.get("/api/feed/users", { auth: reader })).body).toEqual({ error: "API key lacks the scope users:manage" });
    expect((await stack.http.get("/api/feed/users", { auth: await keyWith(["feeds:read", "users:manage"]) })).status).toBe(200);
    // The sync's OAuth client reads the employees feed, not these.
    const client = { bearer: await syncToken(stack, t) };
    expect((await stack.http.get("/api/feed/sites", { auth: client })).status).toBe(401);

    // Another organization's changes are not in the feed.
    const theirs = (await stack.http.post("/api/sites", { name: "Theirs", code: "THEIRS" }, { auth: key(other) })).body;
    const ours = (await stack.http.post("/api/sites", { name: "Ours", code: "OURS" }, { auth: reader })).body;
    expect(ours.id).toBeUndefined(); // a read-only key cannot write
    const mine = (await stack.http.post("/api/sites", { name: "Ours", code: "OURS" }, { auth: key(t) })).body;
    const seen = await until(
      "our site in our feed",
      () => drain(reader, "/api/feed/sites"),
      (r) => r.items.some((i) => i.id === mine.id),
    );
    expect(seen.items.map((i) => i.id)).not.toContain(theirs.id);
    const bad = await stack.http.get("/api/feed/sites?cursor=not-a-cursor", { auth: reader });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("cursor is not a cursor this feed returned");
  });
});
