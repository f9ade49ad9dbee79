import { describe, expect, it } from "vitest";
import { expectLifecycleEvents, key, useDirectoryStack } from "../fixtures/directory.fixtures.ts";
import { createTemplate, forkliftBody, userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Asset types over HTTP (docs/organization-administration.md, Asset types): create with a field
 * schema, list, read with an ETag, change with If-Match, archive, delete guarded by the templates
 * naming it, who may change them, webhooks.
 */

const ctx = useDirectoryStack({ receiver: true });
const crane = {
  name: "Crane",
  fields: [
    { name: "serialNumber", type: "text", required: true },
    { name: "liftKg", type: "number" },
  ],
};

describe("asset types", () => {
  it("create with fields, list, read with an ETag, change fields, archive, restore, delete", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const created = await ctx.stack.http.post("/api/asset-types", crane, { auth });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: "Crane",
      fields: [
        { name: "serialNumber", type: "text", required: true },
        { name: "liftKg", type: "number", required: false },
      ],
      assets: 0,
      templates: 0,
      archived: false,
      revision: 1,
    });
    const id = created.body.id;
    expect((await ctx.stack.http.get("/api/asset-types", { auth })).body.assetTypes.map((a: any) => a.name)).toEqual([
      "Crane",
      "Fire Extinguisher",
      "Forklift",
    ]);
    const read = await ctx.stack.http.get(`/api/asset-types/${id}`, { auth });
    expect(read.body).toEqual(created.body);
    expect((await ctx.stack.http.get(`/api/asset-types/${id}`, { auth, headers: { "if-none-match": read.headers.get("etag")! } })).status).toBe(304);

    expect((await ctx.stack.http.patch(`/api/asset-types/${id}`, { name: "Tower crane" }, { auth })).status).toBe(428);
    const changed = await ctx.stack.http.patch(
      `/api/asset-types/${id}`,
      { fields: [{ name: "inspectedOn", type: "date", required: true }] },
      { auth, headers: { "if-match": read.headers.get("etag")! } },
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ fields: [{ name: "inspectedOn", type: "date", required: true }], revision: 2 });
    expect((await ctx.stack.http.patch(`/api/asset-types/${id}`, { name: "X" }, { auth, headers: { "if-match": read.headers.get("etag")! } })).status).toBe(
      412,
    );

    const archived = await ctx.stack.http.patch(`/api/asset-types/${id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    expect(archived.body.archived).toBe(true);
    expect((await ctx.stack.http.get("/api/asset-types", { auth })).body.assetTypes.map((a: any) => a.id)).not.toContain(id);
    await ctx.stack.http.patch(`/api/asset-types/${id}`, { archived: false }, { auth, headers: { "if-match": "*" } });
    expect((await ctx.stack.http.request("DELETE", `/api/asset-types/${id}`, { auth })).status).toBe(204);
    expect((await ctx.stack.http.get(`/api/asset-types/${id}`, { auth })).status).toBe(404);
  });

  it("one a template names cannot be deleted: 409 naming how many", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    await createTemplate(ctx.stack, t, forkliftBody(t));
    const del = await ctx.stack.http.request("DELETE", `/api/asset-types/${t.assetTypes[0]!.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.error).toContain("1 template");
    expect((await ctx.stack.http.get(`/api/asset-types/${t.assetTypes[0]!.id}`, { auth })).body.templates).toBe(1);
  });

  it("bad fields are a 400 naming the field; a taken name 409; another organization's id 404; only admins change them", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const badType = await ctx.stack.http.post("/api/asset-types", { name: "X", fields: [{ name: "a", type: "colour" }] }, { auth });
    expect(badType.status).toBe(400);
    expect(JSON.stringify(badType.body)).toContain("fields");
    const dup = await ctx.stack.http.post(
      "/api/asset-types",
      {
        name: "X",
        fields: [
          { name: "a", type: "text" },
          { name: "A", type: "date" },
        ],
      },
      { auth },
    );
    expect(dup.status).toBe(400);
    expect((await ctx.stack.http.post("/api/asset-types", { name: "Forklift" }, { auth })).status).toBe(409);
    const other = await ctx.stack.tenant();
    expect((await ctx.stack.http.get(`/api/asset-types/${other.assetTypes[0]!.id}`, { auth })).status).toBe(404);
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    expect((await ctx.stack.http.get("/api/asset-types", { auth: inspector })).status).toBe(200);
    expect((await ctx.stack.http.post("/api/asset-types", { name: "Mine" }, { auth: inspector })).status).toBe(403);
  });

  it("asset_type.* webhook events; a deleted one carries its id", async () => {
    await expectLifecycleEvents(ctx, { kind: "asset_type", path: "/api/asset-types", create: { name: "Hooked" }, patch: { name: "Hooked 2" } });
  });
});
