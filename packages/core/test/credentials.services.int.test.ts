import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { authenticateClient, issueApiKey, issueOAuthClient, rotateOAuthClientSecret, seedDemo, type DemoSeed, type Principal } from "../src/index.ts";

/** The credentials services against a real database: the quota under concurrency, who may, and a rotation's previous secret. */
let db: TestDatabase;
let t: DemoSeed;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
});
afterAll(() => db?.close());

const admin = (): Principal => ({ kind: "user", organizationId: t.organization.id, userId: t.users.admin.id, isAdmin: true, mustResetPassword: false });

describe("credentials services", () => {
  it("ten creations at once with one place left: exactly one gets it", async () => {
    const org = await seedDemo(db.db);
    const asAdmin: Principal = { kind: "user", organizationId: org.organization.id, userId: org.users.admin.id, isAdmin: true, mustResetPassword: false };
    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => issueApiKey(db.db, org.organization.id, asAdmin, { name: `k${i}`, scopes: ["media:read"] }, { maxActive: 2 })),
    );
    expect(tries.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(tries.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.kind)).toEqual(Array(9).fill("conflict"));
  });

  it("a user who is not an admin may not; an unknown scope is refused even for the CLI", async () => {
    const inspector: Principal = { kind: "user", organizationId: t.organization.id, userId: t.users.inspector.id, isAdmin: false, mustResetPassword: false };
    await expect(issueApiKey(db.db, t.organization.id, inspector, { name: "x", scopes: ["media:read"] })).rejects.toMatchObject({ kind: "forbidden" });
    for (const expiresAt of ["2020-01-01T00:00:00Z", "soon"])
      await expect(issueApiKey(db.db, t.organization.id, "admin_cli", { name: "x", scopes: ["media:read"], expiresAt })).rejects.toMatchObject({
        kind: "invalid",
        details: ["expiresAt: expiresAt must be in the future"],
      });
    await expect(issueOAuthClient(db.db, t.organization.id, "admin_cli", { name: "x", scopes: ["root"] })).rejects.toMatchObject({
      kind: "invalid",
      message: "Unknown OAuth client scope root: the scopes are employees:sync, scim",
    });
  });

  it("after a rotation the previous secret authenticates until its grace ends; a second rotation drops it", async () => {
    const c = await issueOAuthClient(db.db, t.organization.id, admin(), { name: "HR", scopes: ["employees:sync"] });
    const r1 = await rotateOAuthClientSecret(db.db, t.organization.id, admin(), c.clientId, 3600);
    expect(await authenticateClient(db.db, c.clientId, c.clientSecret)).toMatchObject({ clientId: c.clientId });
    expect(await authenticateClient(db.db, c.clientId, r1.clientSecret)).toMatchObject({ clientId: c.clientId });
    const r2 = await rotateOAuthClientSecret(db.db, t.organization.id, admin(), c.clientId, 3600);
    expect(await authenticateClient(db.db, c.clientId, c.clientSecret)).toBeNull();
    expect(await authenticateClient(db.db, c.clientId, r1.clientSecret)).not.toBeNull();
    await db.sql`update oauth_clients set previous_secret_expires_at = now() - interval '1 second' where client_id = ${c.clientId}`;
    expect(await authenticateClient(db.db, c.clientId, r1.clientSecret)).toBeNull();
    expect(await authenticateClient(db.db, c.clientId, r2.clientSecret)).not.toBeNull();
  });
});
