import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startReceiver, startStack, until, type Receiver, type Stack } from "@insp/testing";
import { createTemplate, smallBody, userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Response types over HTTP (docs/organization-administration.md, Response types): create with
 * options, list, read with an ETag, change with If-Match, archive (new templates may not use an
 * archived one, existing ones keep it), guarded delete, who may change them, webhooks.
 */

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({ workers: 1, env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,1" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const key = (t: DemoSeed) => ({ bearer: t.apiKey });
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
    const t = await stack.tenant();
    const auth = key(t);
    const created = await stack.http.post("/api/response-types", passFail, { auth });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Pass / fail", inputType: "SELECT", uiLabel: "Pass / fail", templates: 0, archived: false, revision: 1 });
    expect(created.body.options.map((o: any) => [o.label, o.value, o.position, o.requiresNote, o.requiresPhoto])).toEqual([
      ["Pass", "pass", 0, false, false],
      ["Fail", "fail", 1, true, true],
    ]);
    expect(created.headers.get("etag")).toMatch(/^"r1-[0-9a-f]{8}"$/);
    const id = created.body.id;

    const all = await stack.http.get("/api/response-types", { auth });
    expect(all.body.responseTypes.map((r: any) => r.name)).toEqual(["Boolean", "Condition", "Date", "Number", "Pass / fail", "Text", "Yes/No/N/A"]);
    expect((await stack.http.get("/api/response-types?namePrefix=pass", { auth })).body.responseTypes.map((r: any) => r.id)).toEqual([id]);
    const read = await stack.http.get(`/api/response-types/${id}`, { auth });
    expect(read.body).toEqual(created.body);
    expect((await stack.http.get(`/api/response-types/${id}`, { auth, headers: { "if-none-match": read.headers.get("etag")! } })).status).toBe(304);

    const noIfMatch = await stack.http.patch(`/api/response-types/${id}`, { uiLabel: "Result" }, { auth });
    expect(noIfMatch.status).toBe(428);
    const relabel = await stack.http.patch(
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
    const stale = await stack.http.patch(`/api/response-types/${id}`, { uiLabel: "Again" }, { auth, headers: { "if-match": read.headers.get("etag")! } });
    expect(stale.status).toBe(412);

    const archived = await stack.http.patch(`/api/response-types/${id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    expect(archived.body).toMatchObject({ archived: true, revision: 3 });
    expect((await stack.http.get("/api/response-types", { auth })).body.responseTypes.map((r: any) => r.id)).not.toContain(id);
    expect((await stack.http.get("/api/response-types?includeArchived=true", { auth })).body.responseTypes.map((r: any) => r.id)).toContain(id);
    const restored = await stack.http.patch(`/api/response-types/${id}`, { archived: false }, { auth, headers: { "if-match": "*" } });
    expect(restored.body.archived).toBe(false);

    expect((await stack.http.request("DELETE", `/api/response-types/${id}`, { auth })).status).toBe(204);
    expect((await stack.http.get(`/api/response-types/${id}`, { auth })).status).toBe(404);
  });

  it("one used by a template cannot be deleted (409 naming how many); archived, templates keep it but a new one cannot name it", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const rt = (await stack.http.post("/api/response-types", passFail, { auth })).body;
    const question = { key: "q1", text: "Guard in place?", required: true, responseTypeId: rt.id };
    const template = await createTemplate(stack, t, smallBody(t, [question]));

    const del = await stack.http.request("DELETE", `/api/response-types/${rt.id}`, { auth });
    expect(del.status).toBe(409);
    expect(del.body.error).toContain("1 template uses it");
    expect((await stack.http.get(`/api/response-types/${rt.id}`, { auth })).body.templates).toBe(1);

    await stack.http.patch(`/api/response-types/${rt.id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    expect((await stack.http.get(`/api/templates/${template.id}`, { auth })).status).toBe(200);
    const again = await stack.http.post("/api/templates", smallBody(t, [question]), { auth });
    expect(again.status).toBe(400);
    expect(again.body.details.join(" ")).toContain("responseTypeId");
    expect(again.body.details.join(" ")).toContain("archived");
  });

  it("bad input is a 400 naming the field; a taken name 409; another organization's id 404", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const bad = await stack.http.post("/api/response-types", { name: "X", inputType: "SLIDER" }, { auth });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("inputType");
    const textWithOptions = await stack.http.post("/api/response-types", { name: "X", inputType: "TEXT", options: [{ label: "a", value: "a" }] }, { auth });
    expect(textWithOptions.status).toBe(400);
    expect(JSON.stringify(textWithOptions.body)).toContain("options");
    const dup = await stack.http.post("/api/response-types", { name: "Text", inputType: "TEXT" }, { auth });
    expect(dup.status).toBe(409);
    const dupValues = await stack.http.post(
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

    const other = await stack.tenant();
    const theirs = (await stack.http.get("/api/response-types", { auth: key(other) })).body.responseTypes[0].id;
    expect((await stack.http.get(`/api/response-types/${theirs}`, { auth })).status).toBe(404);
    expect((await stack.http.patch(`/api/response-types/${theirs}`, { uiLabel: "x" }, { auth, headers: { "if-match": "*" } })).status).toBe(404);
    expect((await stack.http.request("DELETE", `/api/response-types/${theirs}`, { auth })).status).toBe(404);
  });

  it("every user reads them; only admins change them", async () => {
    const t = await stack.tenant();
    const inspector = { bearer: await userToken(stack, t.users.inspector) };
    expect((await stack.http.get("/api/response-types", { auth: inspector })).status).toBe(200);
    const denied = await stack.http.post("/api/response-types", { name: "Mine", inputType: "TEXT" }, { auth: inspector });
    expect(denied.status).toBe(403);
  });

  it("response_type.* webhook events; a deleted one carries its id", async () => {
    const t = await stack.tenant();
    const auth = key(t);
    const path = `/rtypes-${t.organization.id}`;
    const events = ["response_type.created", "response_type.updated", "response_type.archived", "response_type.deleted"];
    const ep = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events }, { auth });
    expect(ep.status, ep.text).toBe(201);
    await receiver.configure(path, { secrets: [ep.body.secret] });
    const rt = (await stack.http.post("/api/response-types", { name: "Hooked", inputType: "TEXT" }, { auth })).body;
    await stack.http.patch(`/api/response-types/${rt.id}`, { uiLabel: "Hook" }, { auth, headers: { "if-match": "*" } });
    await stack.http.patch(`/api/response-types/${rt.id}`, { archived: true }, { auth, headers: { "if-match": "*" } });
    await stack.http.request("DELETE", `/api/response-types/${rt.id}`, { auth });
    const got = await until(
      "four events",
      () => receiver.received(path),
      (rs) => rs.length >= 4,
    );
    expect(got.map((r) => r.body.type).sort()).toEqual(events.slice().sort());
    expect(got.find((r) => r.body.type === "response_type.deleted")!.body.data).toEqual({ id: rt.id });
  });
});
