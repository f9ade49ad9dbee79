import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { ADMIN_CLI, AppError, createOrganization, createSite, deleteSite, listRoles, patchSite, seedDemo, type DemoSeed } from "../src/index.ts";

/**
 * The directory's services against a real database (docs/organization-administration.md): regions
 * several levels deep never form a cycle, a new organization has the spec's roles, and the
 * delete guard counts what refers to a site.
 */

let db: TestDatabase;
let t: DemoSeed;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
});
afterAll(async () => {
  await db?.close();
});

const kindOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return "ok";
  } catch (err) {
    return err instanceof AppError ? `${err.kind}: ${err.details?.join("; ") ?? err.message}` : String(err);
  }
};

describe("directory services", () => {
  it("a region several levels up cannot be put below its own descendant", async () => {
    const org = t.organization.id;
    const a = await createSite(db.db, org, ADMIN_CLI, { name: "A", code: "L-A" });
    const b = await createSite(db.db, org, ADMIN_CLI, { name: "B", code: "L-B", parentSiteId: a.id });
    const c = await createSite(db.db, org, ADMIN_CLI, { name: "C", code: "L-C", parentSiteId: b.id });
    const d = await createSite(db.db, org, ADMIN_CLI, { name: "D", code: "L-D", parentSiteId: c.id });
    expect(await kindOf(patchSite(db.db, org, a.id, null, { parentSiteId: d.id }, ADMIN_CLI))).toBe(
      `invalid: parentSiteId '${d.id}' is this site or one below it: a site cannot be its own region`,
    );
    // Moving a branch elsewhere is fine: D below A directly.
    expect(await kindOf(patchSite(db.db, org, d.id, null, { parentSiteId: a.id }, ADMIN_CLI))).toBe("ok");
    expect(await kindOf(deleteSite(db.db, org, a.id, ADMIN_CLI))).toBe("conflict: 2 sites below it");
  });

  it("a new organization starts with the spec's known roles, each audited as the admin CLI's", async () => {
    const org = await createOrganization(db.db, "Fresh");
    const roles = await listRoles(db.db, org.id, { limit: 50, offset: 0, includeArchived: false });
    expect(roles.roles.map((r) => r.name).sort()).toEqual(["FIELD_TECH", "admin", "inspector", "site_manager"]);
    const audit = await db.sql<{ action: string; actor_type: string }[]>`select action, actor_type from audit_log where organization_id = ${org.id}`;
    expect(audit).toEqual(Array(4).fill({ action: "role.created", actor_type: "admin_cli" }));
  });
});
