import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { CHANGE_HORIZON } from "@insp/db";
import { holdTransaction, otherDatabaseUrl, startStack, until, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { drainFeed, type FeedItem } from "../fixtures/feeds.fixtures.ts";
import { auditTemplateBody, createTemplate, importBody, importOk } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const apiGet = (t: DemoSeed) => (path: string) => stack.http.get(path, { auth: { bearer: t.apiKey } });

describe("change feeds", () => {
  it("templates: created, published and archived, each with the template as it is now, oldest first", async () => {
    const t = await stack.tenant();
    const get = apiGet(t);
    const a = await createTemplate(stack, t, auditTemplateBody(t, { name: "Feed A" }));
    const b = await createTemplate(stack, t, auditTemplateBody(t, { name: "Feed B" }), false);
    expect((await stack.http.post(`/api/templates/${a.id}/archive`, {}, { auth: { bearer: t.apiKey } })).status).toBe(200);
    // Repeating a transition changes nothing, so it is not in the feed.
    expect((await stack.http.post(`/api/templates/${a.id}/archive`, {}, { auth: { bearer: t.apiKey } })).status).toBe(200);
    const { items } = await until(
      "template feed",
      () => drainFeed(get, "/api/feed/templates"),
      (r) => r.items.length >= 4,
    );
    expect(items.map((i) => [i.id, i.change])).toEqual([
      [a.id, "created"],
      [a.id, "published"],
      [b.id, "created"],
      [a.id, "archived"],
    ]);
    const list = (await get("/api/templates?publishedOnly=false")).body as { id: string }[];
    expect(items[0]!.resource).toEqual(list.find((x) => x.id === a.id));
    expect(items[0]!.resource).toMatchObject({ id: a.id, title: "Feed A", status: "ARCHIVED", isActive: false });
    expect(items[2]!.resource).toMatchObject({ id: b.id, status: "DRAFT" });
    for (const i of items) expect(Date.parse(i.at)).toBeGreaterThan(Date.now() - 120_000);
  });

  it("inspections: created when an import is done, with the list's summary", async () => {
    const t = await stack.tenant();
    const get = apiGet(t);
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const one = await importOk(stack, t, importBody(t, tpl));
    const two = await importOk(stack, t, importBody(t, tpl));
    const { items } = await until(
      "inspection feed",
      () => drainFeed(get, "/api/feed/inspections"),
      (r) => r.items.length >= 2,
    );
    expect(items.map((i) => [i.id, i.change])).toEqual([
      [one.id, "created"],
      [two.id, "created"],
    ]);
    const listed = (await get("/api/inspections")).body.inspections as { id: string }[];
    expect(items[1]!.resource).toEqual(listed.find((x) => x.id === two.id));
    expect(items[0]!.resource).toMatchObject({ id: one.id, inspectionNumber: one.inspectionNumber });
  });

  it("employees: created, updated and deactivated; unchanged records, dry runs and refused records are not changes", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [a, b, c] = [uniq("F"), uniq("F"), uniq("F")];
    await api.sync([
      { externalEmployeeId: a.id, email: a.email, roles: ["inspector"] },
      { externalEmployeeId: b.id, email: b.email },
    ]);
    const first = await until(
      "employee feed",
      () => drainFeed(api.get, "/api/v1/feed/employees"),
      (r) => r.items.length >= 2,
    );
    expect(first.items.map((i) => i.change)).toEqual(["created", "created"]);
    const ea = first.items.find((i) => i.resource.externalEmployeeId === a.id);
    const eb = first.items.find((i) => i.resource.externalEmployeeId === b.id);
    expect(ea!.resource).toEqual((await api.get(`/api/v1/employees/${ea!.id}`)).body);

    await api.sync([{ externalEmployeeId: a.id, email: a.email, roles: ["inspector"] }]); // unchanged
    const dry = await api.post({ employees: [{ externalEmployeeId: c.id, email: c.email }] }, { query: "dryRun=true" });
    expect(dry.body.results).toMatchObject([{ status: "CREATED" }]);
    // c asks for a's e-mail: refused by the rules, its transaction rolled back.
    const refused = await api.post({ employees: [{ externalEmployeeId: c.id, email: a.email }] });
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toHaveLength(1);
    await api.sync([{ externalEmployeeId: b.id, email: b.email, jobTitle: "Lead" }]);
    await api.sync([{ externalEmployeeId: a.id, email: a.email, status: "TERMINATED" }]);
    await api.sync([{ externalEmployeeId: a.id, email: a.email, status: "TERMINATED", jobTitle: "Gone" }]);
    const next = await until(
      "employee feed",
      () => drainFeed(api.get, "/api/v1/feed/employees", first.cursor),
      (r) => r.items.length >= 3,
    );
    expect(next.items.map((i) => [i.id, i.change])).toEqual([
      [eb!.id, "updated"],
      [ea!.id, "deactivated"],
      [ea!.id, "updated"],
    ]);
    expect(next.items.at(-1)!.resource).toMatchObject({ status: "TERMINATED", jobTitle: "Gone" });
    // Read to the end, the cursor answers nothing new, and the same cursor again.
    const end = await drainFeed(api.get, "/api/v1/feed/employees", next.cursor);
    expect(end).toEqual({ items: [], cursor: next.cursor });
  });

  it("pages with limit and nextCursor: every change once, in the same order as one large page", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    await api.sync(Array.from({ length: 23 }, () => ({ externalEmployeeId: uniq("P").id })));
    const whole = await until(
      "employee feed",
      () => drainFeed(api.get, "/api/v1/feed/employees"),
      (r) => r.items.length >= 23,
    );
    const paged = await drainFeed(api.get, "/api/v1/feed/employees", undefined, 5);
    expect(paged.items.map((i) => i.id)).toEqual(whole.items.map((i) => i.id));
    expect(new Set(whole.items.map((i) => i.id)).size).toBe(23);
    const page = await api.get("/api/v1/feed/employees?limit=5");
    expect(page.body).toMatchObject({ hasMore: true });
    expect(page.body.items).toHaveLength(5);
    // A page size above 500 is capped, not refused.
    expect((await api.get("/api/v1/feed/employees?limit=100000")).body.items).toHaveLength(23);
  });

  it("is sealed per organization and per credential kind, and refuses cursors it did not give", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    await createTemplate(stack, t, auditTemplateBody(t, { name: "Mine" }));
    const mine = await until(
      "template feed",
      () => drainFeed(apiGet(t), "/api/feed/templates"),
      (r) => r.items.length >= 2,
    );
    expect((await drainFeed(apiGet(other), "/api/feed/templates")).items).toEqual([]);
    // Another organization's cursor only says where to start; it shows nothing of ours.
    expect(
      (await drainFeed(apiGet(other), "/api/feed/templates", mine.items.length ? (await apiGet(t)("/api/feed/templates?limit=1")).body.nextCursor : undefined))
        .items,
    ).toEqual([]);
    expect((await stack.http.get("/api/feed/templates", { auth: null })).status).toBe(401);
    const api = await syncCaller(stack, t);
    expect((await stack.http.get("/api/feed/templates", { auth: { bearer: api.token } })).status).toBe(401);
    // The employees feed takes the sync's tokens and API keys that may read employees (the demo key may; api-key-scopes.int.test.ts has one that may not); never a user token.
    expect((await stack.http.get("/api/v1/feed/employees", { auth: { bearer: t.apiKey } })).status).toBe(200);
    const user = (await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password })).body.accessToken as string;
    expect((await stack.http.get("/api/v1/feed/employees", { auth: { bearer: user } })).status).toBe(401);
    for (const q of [
      "cursor=nonsense",
      `cursor=${Buffer.from("1.2.3").toString("base64url")}`,
      `cursor=${Buffer.from("-1.2").toString("base64url")}`,
      `cursor=${"A".repeat(300)}`,
      "limit=0",
      "limit=abc",
    ]) {
      const res = await apiGet(t)(`/api/feed/templates?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(typeof res.body.error).toBe("string");
    }
  });

  it("a crawl never skips a change, even one whose transaction began earlier and committed later", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const org = t.organization.id;
    const seen: FeedItem[] = [];
    let cursor: string | undefined;
    let writing = true;
    const crawler = (async () => {
      for (;;) {
        const stillWriting = writing;
        const page = await drainFeed(api.get, "/api/v1/feed/employees", cursor, 7);
        seen.push(...page.items);
        cursor = page.cursor;
        if (!stillWriting && page.items.length === 0) {
          // Nothing more visible after the writers ended: one last look once every transaction is over.
          const open = await stack.db
            .sql`select count(*)::int as n from change_events where organization_id = ${org} and xid >= ${stack.db.sql.unsafe(CHANGE_HORIZON)}`;
          if (open[0]!.n === 0) return;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    // Held transactions: each records a change early (its row has a low seq and, for the second
    // kind, a low transaction id) and commits only after many later changes were committed and
    // crawled.
    const held = await Promise.all(
      Array.from({ length: 4 }, async (_, k) => {
        const reserved = await stack.db.sql.reserve();
        await reserved`begin`;
        if (k % 2 === 0)
          await reserved`insert into change_events (organization_id, resource_type, resource_id, change) values (${org}, 'employee', ${randomUUID()}, 'updated')`;
        else await reserved`select pg_current_xact_id()`;
        return { reserved, k };
      }),
    );
    const batches = Array.from({ length: 12 }, (_, i) =>
      Array.from({ length: 15 }, (_, j) => ({ externalEmployeeId: `W${i % 6}-${j}`, jobTitle: `round ${i}` })),
    );
    const writers = [0, 1, 2].map(async (w) => {
      for (let i = w; i < batches.length; i += 3) await api.sync(batches[i]!);
    });
    await writers[0];
    for (const h of held) {
      if (h.k % 2 === 1)
        await h.reserved`insert into change_events (organization_id, resource_type, resource_id, change) values (${org}, 'employee', ${randomUUID()}, 'updated')`;
      await h.reserved`commit`;
      h.reserved.release();
      await new Promise((r) => setTimeout(r, 30));
    }
    await Promise.all(writers);
    writing = false;
    await crawler;

    const rows = await stack.db.sql<
      { id: string; change: string }[]
    >`select resource_id as id, change from change_events where organization_id = ${org} and resource_type = 'employee'`;
    const key = (x: { id: string; change: string }) => `${x.id} ${x.change}`;
    expect(rows.length).toBeGreaterThan(90 + 4);
    expect(seen.map(key).sort()).toEqual(rows.map(key).sort());
  });

  it("a long transaction in another database of the server does not hold the feed back; one in this database does", async () => {
    const t = await stack.tenant();
    const get = apiGet(t);
    const elsewhere = await holdTransaction(otherDatabaseUrl());
    let here: { end: () => Promise<void> } | undefined;
    try {
      const a = await createTemplate(stack, t, auditTemplateBody(t, { name: "Beside another database" }), false);
      const seen = await until(
        "the change made while another database's transaction runs",
        () => drainFeed(get, "/api/feed/templates"),
        (r) => r.items.length >= 1,
      );
      expect(seen.items.map((i) => [i.id, i.change])).toEqual([[a.id, "created"]]);

      // A transaction of this database that began first holds every later change back until it ends.
      here = await holdTransaction(stack.db.url);
      const b = await createTemplate(stack, t, auditTemplateBody(t, { name: "Behind this database's" }), false);
      expect((await drainFeed(get, "/api/feed/templates", seen.cursor)).items).toEqual([]);
      await here.end();
      const after = await until(
        "the change once the older transaction ended",
        () => drainFeed(get, "/api/feed/templates", seen.cursor),
        (r) => r.items.length >= 1,
      );
      expect(after.items.map((i) => [i.id, i.change])).toEqual([[b.id, "created"]]);
    } finally {
      await Promise.all([elsewhere.end(), here?.end()]);
    }
  });
});
