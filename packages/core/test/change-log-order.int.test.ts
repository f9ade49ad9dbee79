import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { dispatchWebhookEvents, readFeed, seedDemo, type DemoSeed } from "../src/index.ts";

// The change log is read in the order of transaction ids. Changes are written here with chosen
// ids on both sides of a new digit (98, 99, 100, 101): ordered as text, as the readers once did
// by their text aliases, a page ending at 101 passes over 98 and 99 for good. A fresh cluster
// (the embedded server of a bare machine) reaches transaction 1000 during the tests; CI's shared
// server had long had seven digits, so no other test saw it.

let db: TestDatabase;
let t: DemoSeed;
const XIDS = ["98", "99", "100", "101"];

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
  // The endpoint first: a change older than an endpoint is not sent to it. Both within one
  // millisecond, the endpoint 0.3 ms earlier: as two quick statements often are, and as the
  // dispatcher once compared them (to the millisecond, the endpoint came after).
  await db.sql`insert into webhook_endpoints (organization_id, url, events, secret_enc, created_at) values (${t.organization.id}, 'https://receiver.example/hook', ${["template.created"]}, 'unused', '2026-01-01T00:00:00.000400Z')`;
  await db.sql`insert into change_events (organization_id, xid, resource_type, resource_id, change, created_at)
    select ${t.organization.id}, x::xid8, 'template', gen_random_uuid(), 'created', '2026-01-01T00:00:00.000700Z' from unnest(${XIDS}::text[]) x`;
});
afterAll(() => db?.close());

const xidsOf = async (eventColumn: "resource_id" | "id", ids: string[]) =>
  (
    await db.sql<
      { xid: string }[]
    >`select xid::text as xid from change_events where ${db.sql(eventColumn)} = any(${ids}::uuid[]) order by array_position(${ids}::uuid[], ${db.sql(eventColumn)})`
  ).map((r) => r.xid);

it("a feed pages through changes in transaction order where the ids gain a digit", async () => {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const p = await readFeed(db.db, t.organization.id, "template", { cursor, limit: 2 });
    ids.push(...p.items.map((i) => i.id));
    cursor = p.nextCursor;
    if (!p.hasMore) break;
  }
  expect((await xidsOf("resource_id", ids)).slice(0, 4)).toEqual(XIDS);
});

it("the webhook dispatcher fans out every change where the ids gain a digit", async () => {
  await db.sql`update webhook_dispatch set xid = '0', seq = 0 where id = 1`;
  for (let call = 0; call < 20; call++) if ((await dispatchWebhookEvents(db.db, 2)).events === 0) break;
  const events = await db.sql<{ event_id: string }[]>`select event_id from webhook_deliveries where organization_id = ${t.organization.id}`;
  expect(
    (
      await xidsOf(
        "id",
        events.map((e) => e.event_id),
      )
    )
      .filter((x) => XIDS.includes(x))
      .sort((a, b) => Number(a) - Number(b)),
  ).toEqual(XIDS);
});
