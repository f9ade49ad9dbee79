import { randomBytes } from "node:crypto";
import type { Db, Tx } from "@insp/db";
import { ADMIN_CLI } from "../audit/index.ts";
import { inviteUser, type NewUser } from "../users/index.ts";
import { KNOWN_ROLES, createApiKey, createOAuthClient, createOrganization } from "./admin.ts";
import { createResponseType } from "./response-types.ts";
import { createAssetType } from "./asset-types.ts";
import { createGroup } from "./groups.ts";
import { createSite } from "./sites.ts";

const demoUser = async (tx: Tx, organizationId: string, u: NewUser) => (await inviteUser(tx, organizationId, "admin_cli", u, ADMIN_CLI)).user;

/**
 * A new, complete demo organization on every call, so two calls give two isolated
 * tenants. The printed shape is relied on by outside tools (issue 2): keep it.
 */
export async function seedDemo(db: Db, opts: { pepper?: string; name?: string } = {}) {
  const suffix = randomBytes(4).toString("hex");
  return db.transaction(async (tx) => {
    const org = await createOrganization(tx, opts.name ?? `Demo Org ${suffix}`);
    const apiKey = await createApiKey(tx, org.id, "demo key", opts.pepper);
    const client = await createOAuthClient(tx, org.id, "demo HR sync", opts.pepper);
    const adminPassword = randomBytes(12).toString("base64url");
    const inspectorPassword = randomBytes(12).toString("base64url");
    // The same function as POST /api/users (its checks, audit entry and user.created event); the
    // operator's password is set, so no welcome mail is sent.
    const admin = await demoUser(tx, org.id, { email: `admin-${suffix}@demo.example`, name: "Demo Admin", password: adminPassword, isAdmin: true });
    const inspector = await demoUser(tx, org.id, { email: `inspector-${suffix}@demo.example`, name: "Demo Inspector", password: inspectorPassword });
    // The printed shape keeps { id, name, code } and { id, name, externalId }.
    const sites = [];
    for (const [name, code] of [
      ["Main Plant", "MAIN"],
      ["North Depot", "NORTH"],
    ] as const) {
      const s = await createSite(tx, org.id, ADMIN_CLI, { name, code });
      sites.push({ id: s.id, name: s.name, code: s.code });
    }
    const groups = [];
    for (const [name, externalGroupId] of [
      ["Maintenance", "grp-maintenance"],
      ["Safety Team", "grp-safety"],
    ] as const) {
      const g = await createGroup(tx, org.id, ADMIN_CLI, { name, externalGroupId });
      groups.push({ id: g.id, name: g.name, externalId: g.externalGroupId });
    }
    const responseTypes = [
      await createResponseType(tx, org.id, ADMIN_CLI, {
        name: "Yes/No/N/A",
        inputType: "SELECT",
        options: [
          { label: "Yes", value: "yes" },
          { label: "No", value: "no", requiresNote: true, requiresPhoto: true },
          { label: "N/A", value: "na" },
        ],
      }),
      await createResponseType(tx, org.id, ADMIN_CLI, {
        name: "Condition",
        inputType: "MULTI_SELECT",
        options: [
          { label: "Rust", value: "rust" },
          { label: "Leak", value: "leak" },
          { label: "Crack", value: "crack" },
        ],
      }),
      await createResponseType(tx, org.id, ADMIN_CLI, { name: "Text", inputType: "TEXT" }),
      await createResponseType(tx, org.id, ADMIN_CLI, { name: "Number", inputType: "NUMBER" }),
      await createResponseType(tx, org.id, ADMIN_CLI, { name: "Date", inputType: "DATE" }),
      await createResponseType(tx, org.id, ADMIN_CLI, { name: "Boolean", inputType: "BOOLEAN" }),
    ];
    const assetTypes = [
      await createAssetType(tx, org.id, ADMIN_CLI, { name: "Forklift", fields: [{ name: "serialNumber", type: "text", required: true }] }),
      await createAssetType(tx, org.id, ADMIN_CLI, { name: "Fire Extinguisher" }),
    ];
    return {
      organization: { id: org.id, name: org.name },
      apiKey: apiKey.apiKey,
      oauthClient: { clientId: client.clientId, clientSecret: client.clientSecret },
      users: {
        admin: { id: admin.id, email: admin.email, password: adminPassword },
        inspector: { id: inspector.id, email: inspector.email, password: inspectorPassword },
      },
      sites,
      groups,
      roles: [...KNOWN_ROLES],
      responseTypes,
      // The documented shape (docs/organization-administration.md has the full view): id and name.
      assetTypes: assetTypes.map(({ id, name }) => ({ id, name })),
    };
  });
}
export type DemoSeed = Awaited<ReturnType<typeof seedDemo>>;
