import { describe, expect, it } from "vitest";
import { expectLifecycleEvents, key, useDirectoryStack } from "../fixtures/directory.fixtures.ts";
import { createTemplate, smallBody, userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Response types over HTTP (docs/organization-administration.md, Response types): create with
 * options, list, read with an ETag, change with If-Match, archive (new templates may not use an
 * archived one, existing ones keep it), guarded delete, who may change them, webhooks.
 */

const ctx = useDirectoryStack({ receiver: true });
const passFail = {
  name: "Pass / fail",
  inputType: "select",
  options: [
    { label: "Pass", value: "pass" },
    { label: "Fail", value: "fail", requiresNote: true, requiresPhoto: true },
  ],
};

describe("response types", () => {
  it("create with options, list, read with an ETag, relabel, replace options, archive, restore, delete", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const created = await ctx.stack.http.post("/api/response-types", passFail, { auth });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Pass / fail", inputType: "SELECT", uiLabel: "Pass / fail", templates: 0, archived: false, revision: 1 });
    expect(created.body.options.map((o: any) => [o.label, o.value, o.position, o.requiresNote, o.requiresPhoto])).toEqual([
      ["Pass", "pass", 0, false, false],
      ["Fail", "fail", 1, true, true],
    ]);
    expect(created.headers.get("etag")).toMatch(/^"r1-[0-9a-f]{8}"$/);
    const id = created.body.id;

    const all = await ctx.stack.http.get("/api/response-types", { auth });
    expect(all.body.responseTypes.map((r: any) => r.name)).toEqual(["Boolean", "Condition", "Date", "Number", "Pass / fail", "Text", "Yes/No/N/A"]);
    expect((await ctx.stack.http.get("/api/response-types?namePrefix=pass", { auth })).body.responseTypes.map((r: any) => r.id)).toEqual([id]);
    const read = await ctx.stack.http.get(`/api/response-types/${id}`, { auth });
    expect(read.body).toEqual(created.body);
    expect((await ctx.stack.http.get(`/api/response-types/${id}`, { auth, headers: { "if-none-match": read.headers.get("etag")! } })).status).toBe(304);

    const noIfMatch = await ctx.stack.http.patch(`/api/response-types/${id}`, { uiLabel: "Result" }, { auth });
    expect(noIfMatch.status).toBe(428);
    const relabel = await ctx.stack.http.patch(
      `/api/response-types/${id}`,
      {
        uiLabel: "Result",
        options: [
          { label: "OK", value: "ok" },
          { label: "Not OK", value: "nok", requiresNote: true },
        ],
      },
      { auth, headers: { "if-match": read.headers.get("etag")! } },
    );
    expect(relabel.status, relabel.text).toBe(200);
    expect(relabel.body).toMatchObject({ uiLabel: "Result", revision: 2 });
    expect(relabel.body.options.map((o: any) => o.value)).toEqual(["ok", "nok"]);
    const stale = await ctx.stack.http.patch(`/api/response-types/${id}`, { uiLabel: "Again" }, { auth, headers: { "if-match": read.headers.get("etag")! } });
    expect(stale.status).toBe(412);

    const archived = await ctx.stack.http.patch(`/api/response-types/${id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    expect(archived.body).toMatchObject({ archived: true, revision: 3 });
    expect((await ctx.stack.http.get("/api/response-types", { auth })).body.responseTypes.map((r: any) => r.id)).not.toContain(id);
    expect((await ctx.stack.http.get("/api/response-types?includeArchived=true", { auth })).body.responseTypes.map((r: any) => r.id)).toContain(id);
    const restored = await ctx.stack.http.patch(`/api/response-types/${id}`, { archived: false }, { auth, headers: { "if-match": "*" } });
    expect(restored.body.archived).toBe(false);

    expect((await ctx.stack.http.request("DELETE", `/api/response-types/${id}`, { auth })).status).toBe(204);
    expect((await ctx.stack.http.get(`/api/response-types/${id}`, { auth })).status).toBe(404);
  });

  it("one used by a template cannot be deleted (409 naming how many); archived, templates keep it but a new one cannot name it", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const rt = (await ctx.stack.http.post("/api/response-types", passFail, { auth })).body;
    const question = { key: "q1", text: "Guard in place?", required: true, responseTypeId: rt.id };
    const template = await createTemplate(ctx.stack, t, smallBody(t, [question]));

    const del = await ctx.stack.http.request("DELETE", `/api/response-types/${rt.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.error).toContain("1 template uses it");
    expect((await ctx.stack.http.get(`/api/response-types/${rt.id}`, { auth })).body.templates).toBe(1);

    await ctx.stack.http.patch(`/api/response-types/${rt.id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    expect((await ctx.stack.http.get(`/api/templates/${template.id}`, { auth })).status).toBe(200);
    const again = await ctx.stack.http.post("/api/templates", smallBody(t, [question]), { auth });
    expect(again.status).toBe(400);
    expect(again.body.details.join(" ")).toContain("responseTypeId");
    expect(again.body.details.join(" ")).toContain("archived");
  });

  it("bad input is a 400 naming the field; a taken name 409; another organization's id 404", async () => {
    const t = await ctx.stack.tenant();
    const auth = key(t);
    const bad = await ctx.stack.http.post("/api/response-types", { name: "X", inputType: "SLIDER" }, { auth });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("inputType");
    const textWithOptions = await ctx.stack.http.post("/api/response-types", { name: "X", inputType: "TEXT", options: [{ label: "a", value: "a" }] }, { auth });
    expect(textWithOptions.status).toBe(400);
    expect(JSON.stringify(textWithOptions.body)).toContain("options");
    const dup = await ctx.stack.http.post("/api/response-types", { name: "Text", inputType: "TEXT" }, { auth });
    expect(dup.status).toBe(409);
    const dupValues = await ctx.stack.http.post(
      "/api/response-types",
      {
        name: "Y",
        inputType: "SELECT",
        options: [
          { label: "a", value: "a" },
          { label: "b", value: "a" },
        ],
      },
      { auth },
    );
    expect(dupValues.status).toBe(400);

    const other = await ctx.stack.tenant();
    const theirs = (await ctx.stack.http.get("/api/response-types", { auth: key(other) })).body.responseTypes[0].id;
    expect((await ctx.stack.http.get(`/api/response-types/${theirs}`, { auth })).status).toBe(404);
    expect((await ctx.stack.http.patch(`/api/response-types/${theirs}`, { uiLabel: "x" }, { auth, headers: { "if-match": "*" } })).status).toBe(404);
    expect((await ctx.stack.http.request("DELETE", `/api/response-types/${theirs}`, { auth })).status).toBe(404);
  });

  it("every user reads them; only admins change them", async () => {
    const t = await ctx.stack.tenant();
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    expect((await ctx.stack.http.get("/api/response-types", { auth: inspector })).status).toBe(200);
    const denied = await ctx.stack.http.post("/api/response-types", { name: "Mine", inputType: "TEXT" }, { auth: inspector });
    expect(denied.status).toBe(403);
  });

  it("response_type.* webhook events; a deleted one carries its id", async () => {
    await expectLifecycleEvents(ctx, {
      kind: "response_type",
      path: "/api/response-types",
      create: { name: "Hooked", inputType: "TEXT" },
      patch: { uiLabel: "Hook" },
    });
  });
});
