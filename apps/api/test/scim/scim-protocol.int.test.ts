import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, until, type JsonResponse, type Stack } from "@insp/testing";
import { syncCaller } from "../fixtures/employee-sync.fixtures.ts";
import {
  ENTERPRISE,
  ERROR,
  GROUP,
  PATCH_OP,
  USER,
  expectError,
  expectList,
  expectResource,
  expectScim,
  scimCaller,
  type ScimCaller,
} from "../fixtures/scim.fixtures.ts";

/** RFC 7644's rules the identity providers rely on: discovery, paging, filters, versions, errors, auth and tenancy, Bulk. */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** GET through the API with another Host header (fetch always sends the address it connects to). */
const getAs = (host: string, path: string, token: string) =>
  new Promise<{ status: number; etag: string | undefined; body: any }>((resolve, reject) => {
    const url = new URL(stack.http.baseUrl);
    const req = request({ hostname: url.hostname, port: url.port, path: `/scim/v2${path}`, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end();
  });

const newUser = async (c: ScimCaller, n: string, extra: Record<string, unknown> = {}) =>
  expectResource(
    await c.call("POST", "/Users", { schemas: [USER], userName: `${n}@example.test`, externalId: n, name: { givenName: n, familyName: "Tester" }, ...extra }),
    201,
    "User",
  );

describe("SCIM 2.0 protocol", () => {
  it("describes itself: ServiceProviderConfig, ResourceTypes and Schemas (RFC 7643 sections 5 to 7), without a token", async () => {
    const get = (p: string) => stack.http.get(`/scim/v2${p}`, { auth: null });
    const spc = await get("/ServiceProviderConfig");
    expectScim(spc, 200);
    expect(spc.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: { supported: true, maxOperations: 1000, maxPayloadSize: 1048576 },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [{ type: "oauthbearertoken", name: expect.any(String), description: expect.any(String) }],
      meta: { resourceType: "ServiceProviderConfig", location: expect.stringMatching(/\/scim\/v2\/ServiceProviderConfig$/) },
    });
    const types = await get("/ResourceTypes");
    expect(expectList(types, 2).map((r) => [r.id, r.endpoint, r.schema])).toEqual([
      ["User", "/Users", USER],
      ["Group", "/Groups", GROUP],
    ]);
    expect(types.body.Resources[0].schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
    expectScim(await get("/ResourceTypes/User"), 200);
    expectError(await get("/ResourceTypes/Device"), 404);
    const schemas = await get("/Schemas");
    expect(expectList(schemas, 3).map((s) => s.id)).toEqual([USER, GROUP, ENTERPRISE]);
    expect(JSON.stringify(schemas.body)).not.toContain(":null");
    expect((await get(`/Schemas/${USER}`)).body.attributes.some((a: { name: string }) => a.name === "userName")).toBe(true);
    expectError(await get("/Schemas/urn:nope"), 404);
    expectError(await get("/Nothing"), 404);
  });

  it("pages with startIndex and count (1-based; count=0 only counts; beyond the end is empty), in a stable order", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newUser(c, `page-${i}-${t.organization.id.slice(0, 6)}`)).id);
    expect(expectList(await c.call("GET", "/Users?startIndex=1&count=2"), 5).map((u) => u.id)).toEqual(ids.slice(0, 2));
    expect(expectList(await c.call("GET", "/Users?startIndex=3&count=2"), 5, 3).map((u) => u.id)).toEqual(ids.slice(2, 4));
    expect(expectList(await c.call("GET", "/Users?startIndex=5&count=2"), 5, 5).map((u) => u.id)).toEqual(ids.slice(4));
    expect(expectList(await c.call("GET", "/Users?startIndex=9"), 5, 9)).toEqual([]);
    expect(expectList(await c.call("GET", "/Users?count=0"), 5)).toEqual([]);
    expect(expectList(await c.call("GET", "/Users?startIndex=0&count=1"), 5).map((u) => u.id)).toEqual(ids.slice(0, 1));
    expect(expectList(await c.call("GET", "/Users?count=-3"), 5)).toEqual([]);
    expectError(await c.call("GET", "/Users?count=many"), 400, "invalidValue");
    // attributes and excludedAttributes
    const slim = expectList(await c.call("GET", "/Users?count=1&attributes=userName"), 5)[0]!;
    expect(Object.keys(slim).sort()).toEqual(["id", "schemas", "userName"]);
    expect(expectList(await c.call("GET", "/Users?count=1&excludedAttributes=groups,emails"), 5)[0]).not.toHaveProperty("groups");
  });

  it("filters on the attributes identity providers use, and refuses the others with invalidFilter", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const a = await newUser(c, `alpha-${t.organization.id.slice(0, 6)}`, { [ENTERPRISE]: { department: "Warehouse", employeeNumber: "E-7" }, title: "Driver" });
    const b = await newUser(c, `beta-${t.organization.id.slice(0, 6)}`, { active: false });
    // Every match fits one page here, so totalResults must count exactly the users listed.
    const find = async (f: string) => {
      const res = await c.call("GET", `/Users?filter=${encodeURIComponent(f)}`);
      return expectList(res, Array.isArray(res.body.Resources) ? res.body.Resources.length : -1).map((u) => u.id);
    };
    expect(await find(`userName eq "${a.userName.toUpperCase()}"`)).toEqual([a.id]);
    expect(await find(`USERNAME Eq "${a.userName}"`)).toEqual([a.id]);
    expect(await find(`externalId eq "${b.externalId}"`)).toEqual([b.id]);
    expect(await find(`emails[type eq "work"].value eq "${b.userName}"`)).toEqual([b.id]);
    expect(await find(`emails.value co "alpha"`)).toEqual([a.id]);
    expect(await find(`userName sw "beta-"`)).toEqual([b.id]);
    expect(await find("active eq false")).toEqual([b.id]);
    expect(await find(`${ENTERPRISE}:department eq "warehouse"`)).toEqual([a.id]);
    expect(await find(`${ENTERPRISE}:employeeNumber eq "E-7"`)).toEqual([a.id]);
    expect(await find(`title pr and active eq true`)).toEqual([a.id]);
    expect(await find(`userName eq "${a.userName}" or userName eq "${b.userName}"`)).toEqual([a.id, b.id]);
    expect(await find(`emails[type eq "work"]`)).toEqual([a.id, b.id]);
    expect(await find(`emails[type eq "home"]`)).toEqual([]);
    // meta.lastModified: what changed since a point in time (a reconciler's delta query).
    const before = new Date(Date.now() - 60_000).toISOString();
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(await find(`meta.lastModified gt "${before}"`)).toEqual([a.id, b.id]);
    expect(await find(`meta.lastModified gt "${later}"`)).toEqual([]);
    expect(await find(`meta.created ge "${before}" and not (name.givenName sw "alpha")`)).toEqual([b.id]);
    // Attributes the service does not keep are not filterable (the malformed filters: scim-filters.int.test.ts).
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent('addresses.locality eq "x"')}`), 400, "invalidFilter");
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent("userName eq")}`), 400, "invalidFilter");
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent('meta.lastModified gt "yesterday"')}`), 400, "invalidFilter");
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent("active gt true")}`), 400, "invalidFilter");
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent('constructor eq "x"')}`), 400, "invalidFilter");
    expectError(await c.call("GET", `/Groups?filter=${encodeURIComponent("members.$ref pr")}`), 400, "invalidFilter");
  });

  it("versions resources: ETag and meta.version, 304 on If-None-Match, 412 on a stale If-Match", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const u = await newUser(c, `ver-${t.organization.id.slice(0, 6)}`);
    expectScim(await c.call("GET", `/Users/${u.id}`, undefined, { "if-none-match": u.meta.version }), 304);
    const changed = expectResource(
      await c.call(
        "PATCH",
        `/Users/${u.id}`,
        { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Lead" }] },
        { "if-match": u.meta.version },
      ),
      200,
      "User",
    );
    expect(changed.meta.version).not.toBe(u.meta.version);
    expectError(
      await c.call(
        "PATCH",
        `/Users/${u.id}`,
        { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Boss" }] },
        { "if-match": u.meta.version },
      ),
      412,
    );
    expectError(await c.call("PUT", `/Users/${u.id}`, { schemas: [USER], userName: u.userName }, { "if-match": u.meta.version }), 412);
    expectError(await c.call("DELETE", `/Users/${u.id}`, undefined, { "if-match": u.meta.version }), 412);
    // Nothing changed: the same version, and nothing written.
    const same = expectResource(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Lead" }] }),
      200,
      "User",
    );
    expect(same.meta.version).toBe(changed.meta.version);

    // The version is the resource's, whatever Host the caller used (its groups carry $ref URLs).
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: "Versioned", members: [{ value: u.id }] }), 201, "Group");
    const inGroup = expectResource(await c.call("GET", `/Users/${u.id}`), 200, "User");
    const elsewhere = await getAs("scim.example.com:8443", `/Users/${u.id}`, c.token);
    expect(elsewhere.body.groups[0].$ref).toBe(`http://scim.example.com:8443/scim/v2/Groups/${g.id}`);
    expect(elsewhere.etag).toBe(inGroup.meta.version);
    expect((await getAs("scim.example.com", `/Groups/${g.id}`, c.token)).etag).toBe(g.meta.version);
    // If-None-Match and If-Match compare weakly and take lists: W/"x" and "x" are the same tag.
    const strong = inGroup.meta.version.replace(/^W\//, "");
    expectScim(await c.call("GET", `/Users/${u.id}`, undefined, { "if-none-match": strong }), 304);
    expectScim(await c.call("GET", `/Users/${u.id}`, undefined, { "if-none-match": `W/"0000", ${inGroup.meta.version}` }), 304);
    expectScim(await c.call("GET", `/Users/${u.id}`, undefined, { "if-none-match": 'W/"0000"' }), 200);
    expectResource(
      await c.call(
        "PATCH",
        `/Users/${u.id}`,
        { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Chief" }] },
        { "if-match": `"0000", ${strong}` },
      ),
      200,
      "User",
    );
  });

  it("answers every error as SCIM: bad bodies, read-only and unknown paths, a missing token, the wrong scope, another organization's ids", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const c = await scimCaller(stack, t);
    const theirs = await scimCaller(stack, other);
    const u = await newUser(c, `err-${t.organization.id.slice(0, 6)}`);
    expectError(await c.call("POST", "/Users", { schemas: [USER] }), 400, "invalidValue");
    expectError(
      await c.call("POST", "/Users", { schemas: [USER], userName: "x@example.test", emails: [{ value: "not an e-mail", type: "work" }] }),
      400,
      "invalidValue",
    );
    expectError(await c.call("POST", "/Users", { schemas: [USER], userName: 42 }), 400, "invalidValue");
    expectError(
      await stack.http.request("POST", "/scim/v2/Users", {
        auth: { bearer: c.token },
        rawBody: "{not json",
        headers: { "content-type": "application/scim+json" },
      }),
      400,
      "invalidSyntax",
    );
    expectError(await c.call("PATCH", `/Users/${u.id}`, { Operations: [{ op: "replace", path: "title", value: "x" }] }), 400, "invalidSyntax");
    expectError(await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "move", path: "title" }] }), 400, "invalidSyntax");
    expectError(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "noSuchAttribute", value: 1 }] }),
      400,
      "invalidPath",
    );
    expectError(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { id: randomUUID() } }] }),
      400,
      "mutability",
    );
    expectError(await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "remove" }] }), 400, "noTarget");
    expectError(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: `${ENTERPRISE}:manager`, value: randomUUID() }] }),
      400,
      "invalidValue",
    );
    // Another user's userName is taken.
    const v = await newUser(c, `err2-${t.organization.id.slice(0, 6)}`);
    expectError(
      await c.call("PATCH", `/Users/${v.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "userName", value: u.userName }] }),
      409,
      "uniqueness",
    );
    // Authentication and scope.
    expectError(await stack.http.get("/scim/v2/Users", { auth: null }), 401);
    expectError(await stack.http.get("/scim/v2/Users", { auth: { bearer: "garbage" } }), 401);
    expectError(await stack.http.get("/scim/v2/Users", { auth: { bearer: t.apiKey } }), 401);
    expectError(await stack.http.get("/scim/v2/Users", { auth: { bearer: (await syncCaller(stack, t)).token } }), 403);
    // Tenancy: another organization's users and groups are not found, and lists never show them.
    expectError(await theirs.call("GET", `/Users/${u.id}`), 404);
    expectError(await theirs.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "active", value: false }] }), 404);
    expectError(await theirs.call("DELETE", `/Users/${u.id}`), 404);
    expect(expectList(await theirs.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${u.userName}"`)}`), 0)).toEqual([]);
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: "Ours", members: [{ value: u.id }] }), 201, "Group");
    expectError(await theirs.call("GET", `/Groups/${g.id}`), 404);
    expectError(
      await theirs.call("PATCH", `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "displayName", value: "Mine" }] }),
      404,
    );
    // Their user cannot be made a member of our group.
    const stranger = await newUser(theirs, `stranger-${other.organization.id.slice(0, 6)}`);
    // An OR filter whose second branch matches everyone still stays inside the caller's organization.
    const everyone = (path: string, f: string) => theirs.call("GET", `${path}?filter=${encodeURIComponent(f)}`);
    expect(expectList(await everyone("/Users", 'userName eq "nobody" or active eq true'), 1).map((x) => x.id)).toEqual([stranger.id]);
    const theirGroups = (await theirs.call("GET", "/Groups")).body.Resources.map((x: { id: string }) => x.id);
    expect(theirGroups.length).toBeGreaterThan(0);
    expect(expectList(await everyone("/Groups", 'displayName eq "nobody" or displayName pr'), theirGroups.length).map((x) => x.id)).toEqual(theirGroups);
    expectError(
      await c.call("PATCH", `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: stranger.id }] }] }),
      400,
      "invalidValue",
    );
    expectError(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: "Ours" }), 409, "uniqueness");
    expectError(await c.call("GET", "/Users/not-a-uuid"), 404);
  });

  it("runs Bulk operations with bulkId references in any order, each in its own transaction, and stops at failOnErrors", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const tag = t.organization.id.slice(0, 6);
    const bulk = (Operations: unknown[], failOnErrors?: number) =>
      c.call("POST", "/Bulk", { schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"], ...(failOnErrors ? { failOnErrors } : {}), Operations });
    // The RFC's example, reversed: the group refers forward to the user it is made with.
    const res = await bulk([
      {
        method: "POST",
        path: "/Groups",
        bulkId: "ytrewq",
        data: { schemas: [GROUP], displayName: `Tour Guides ${tag}`, members: [{ type: "User", value: "bulkId:qwerty" }] },
      },
      { method: "POST", path: "/Users", bulkId: "qwerty", data: { schemas: [USER], userName: `alice-${tag}@example.test` } },
      { method: "PATCH", path: "/Users/bulkId:qwerty", data: { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Guide" }] } },
    ]);
    expectScim(res, 200);
    expect(res.body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:BulkResponse"]);
    const [group, user, patched] = res.body.Operations;
    expect(user).toMatchObject({
      method: "POST",
      bulkId: "qwerty",
      status: "201",
      location: expect.stringMatching(/\/scim\/v2\/Users\/[0-9a-f-]{36}$/),
      version: expect.stringMatching(/^W\//),
    });
    expect(group).toMatchObject({ method: "POST", bulkId: "ytrewq", status: "201", location: expect.stringMatching(/\/scim\/v2\/Groups\//) });
    expect(patched).toMatchObject({ method: "PATCH", status: "200" });
    const userId = user.location.split("/").pop();
    const made = expectResource(await c.call("GET", `/Groups/${group.location.split("/").pop()}`), 200, "Group");
    expect(made.members.map((m: { value: string }) => m.value)).toEqual([userId]);
    expect(expectList(await c.call("GET", "/Groups"), 1 + t.groups.length).filter((g) => g.displayName === `Tour Guides ${tag}`)).toHaveLength(1);
    expect(expectResource(await c.call("GET", `/Users/${userId}`), 200, "User").title).toBe("Guide");

    // Errors: each failing operation answers its own SCIM error; failOnErrors 1 stops at the first.
    const stopped = await bulk(
      [
        { method: "POST", path: "/Users", bulkId: "dup", data: { schemas: [USER], userName: `alice-${tag}@example.test` } },
        { method: "POST", path: "/Users", bulkId: "never", data: { schemas: [USER], userName: `never-${tag}@example.test` } },
      ],
      1,
    );
    expect(stopped.body.Operations).toEqual([
      { method: "POST", bulkId: "dup", status: "409", response: expect.objectContaining({ status: "409", scimType: "uniqueness" }) },
    ]);
    expectList(await c.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "never-${tag}@example.test"`)}`), 0);
    const cycle = await bulk([
      { method: "POST", path: "/Groups", bulkId: "a", data: { schemas: [GROUP], displayName: "A", members: [{ value: "bulkId:b" }] } },
      { method: "POST", path: "/Groups", bulkId: "b", data: { schemas: [GROUP], displayName: "B", members: [{ value: "bulkId:a" }] } },
      { method: "DELETE", path: "/Users/bulkId:unknown" },
    ]);
    expect(cycle.body.Operations.map((o: { status: string }) => o.status)).toEqual(["409", "409", "409"]);
    expectError(
      await c.call("POST", "/Bulk", {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],
        Operations: Array.from({ length: 1001 }, () => ({ method: "DELETE", path: "/Users/x" })),
      }),
      413,
    );
    expectError(await c.call("POST", "/Bulk", { Operations: [] }), 400, "invalidSyntax");
  });

  it("checks Bulk's maxPayloadSize on the decompressed body: gzip, deflate or br small on the wire but over it inflated is a 413, and nothing runs", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const tag = randomUUID();
    const body = (n: string, padding: number) =>
      Buffer.from(
        JSON.stringify({
          schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],
          Operations: [
            {
              method: "POST",
              path: "/Users",
              bulkId: n,
              data: { schemas: [USER], userName: `${n}-${tag}@example.test`, externalId: `${n}-${tag}`, title: "x".repeat(padding) },
            },
          ],
        }),
      );
    const post = async (wire: Buffer, encoding: string): Promise<JsonResponse> => {
      const res = await fetch(`${stack.http.baseUrl}/scim/v2/Bulk`, {
        method: "POST",
        headers: { authorization: `Bearer ${c.token}`, "content-type": "application/scim+json", "content-encoding": encoding },
        body: wire,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    };
    const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
    for (const [encoding, compress] of Object.entries(compressors)) {
      const inflated = body(`big-${encoding}`, 1_100_000);
      const wire = compress(inflated);
      expect(inflated.length).toBeGreaterThan(1_048_576);
      expect(wire.length).toBeLessThan(20_000);
      const detail = expectError(await post(wire, encoding), 413);
      expect(detail).toMatch(/^The bulk request is \d+ bytes, more than maxPayloadSize \(1048576\)$/);
      expectList(await c.call("GET", `/Users?filter=${encodeURIComponent(`externalId eq "big-${encoding}-${tag}"`)}`), 0);
      // Under the limit inflated, the same encoding is read and run.
      const small = await post(compress(body(`small-${encoding}`, 10)), encoding);
      expectScim(small, 200);
      expect(small.body.Operations).toEqual([expect.objectContaining({ method: "POST", bulkId: `small-${encoding}`, status: "201" })]);
    }
  });

  it("runs a long chain of Bulk operations that each refer forward (every user managed by the next one) in dependency order", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const tag = t.organization.id.slice(0, 6);
    const n = 150;
    const Operations = Array.from({ length: n }, (_, i) => ({
      method: "POST",
      path: "/Users",
      bulkId: `u${i}`,
      data: {
        schemas: [USER, ENTERPRISE],
        userName: `chain-${i}-${tag}@example.test`,
        ...(i + 1 < n ? { [ENTERPRISE]: { manager: { value: `bulkId:u${i + 1}` } } } : {}),
      },
    }));
    const res = await c.call("POST", "/Bulk", { schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"], Operations });
    expectScim(res, 200);
    expect(res.body.Operations.map((o: { bulkId: string; status: string }) => `${o.bulkId}:${o.status}`)).toEqual(Operations.map((o) => `${o.bulkId}:201`)); // in request order
    const idOf = res.body.Operations.map((o: { location: string }) => o.location.split("/").pop());
    for (const i of [0, 74, 148]) expect(expectResource(await c.call("GET", `/Users/${idOf[i]}`), 200, "User")[ENTERPRISE].manager.value).toBe(idOf[i + 1]);
  });

  it("answers a Bulk operation that fails for a reason of the service's own with a 500 in its place: the others stand, failOnErrors counts it, the log names no content", async () => {
    const t = await stack.tenant();
    const c = await scimCaller(stack, t);
    const tag = t.organization.id.slice(0, 6);
    const bulk = (Operations: unknown[], failOnErrors?: number) =>
      c.call("POST", "/Bulk", { schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"], ...(failOnErrors ? { failOnErrors } : {}), Operations });
    // A fault in the database: inserting a group named failing-… raises an error the service does not expect.
    await stack.db.sql.unsafe(`create or replace function scim_test_fault() returns trigger language plpgsql as $$
      begin if new.name like 'failing-%' then raise exception 'injected fault'; end if; return new; end $$`);
    await stack.db.sql.unsafe("create or replace trigger scim_test_fault before insert on groups for each row execute function scim_test_fault()");
    try {
      const marker = `failing-${randomUUID()}`;
      const res = await bulk([
        { method: "POST", path: "/Users", bulkId: "a", data: { schemas: [USER], userName: `before-${tag}@example.test` } },
        { method: "POST", path: "/Groups", bulkId: "g", data: { schemas: [GROUP], displayName: marker } },
        { method: "POST", path: "/Users", bulkId: "b", data: { schemas: [USER], userName: `after-${tag}@example.test` } },
      ]);
      expectScim(res, 200);
      expect(res.body.Operations.map((o: { status: string }) => o.status)).toEqual(["201", "500", "201"]);
      expect(res.body.Operations[1]).toEqual({
        method: "POST",
        bulkId: "g",
        status: "500",
        response: { schemas: [ERROR], status: "500", detail: expect.stringMatching(/request id/) },
      });
      for (const n of ["before", "after"]) expectList(await c.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${n}-${tag}@example.test"`)}`), 1);
      expectList(await c.call("GET", `/Groups?filter=${encodeURIComponent(`displayName eq "${marker}"`)}`), 0);
      // failOnErrors 1: nothing runs after it.
      const stopped = await bulk(
        [
          { method: "POST", path: "/Groups", bulkId: "g", data: { schemas: [GROUP], displayName: marker } },
          { method: "POST", path: "/Users", bulkId: "c", data: { schemas: [USER], userName: `never-${tag}@example.test` } },
        ],
        1,
      );
      expect(stopped.body.Operations.map((o: { status: string }) => o.status)).toEqual(["500"]);
      expectList(await c.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "never-${tag}@example.test"`)}`), 0);
      await until(
        "the cause in the API's log",
        async () => stack.api.output(),
        (out) => out.includes("bulk operation failed"),
      );
      expect(stack.api.output()).not.toContain(marker);
    } finally {
      await stack.db.sql.unsafe("drop trigger if exists scim_test_fault on groups");
    }
  });
});
