import { randomBytes } from "node:crypto";
import type { Db } from "@insp/db";
import {
  createApiKey,
  createAssetType,
  createGroup,
  createOAuthClient,
  createOrganization,
  createResponseType,
  createRole,
  createSite,
  createUser,
} from "./admin.ts";

/** Role names the spec mentions (Processing rule 5). */
const DEMO_ROLES = ["admin", "inspector", "site_manager", "FIELD_TECH"] as const;

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
    const admin = await createUser(tx, {
      organizationId: org.id,
      email: `admin-${suffix}@demo.example`,
      name: "Demo Admin",
      password: adminPassword,
      isAdmin: true,
    });
    const inspector = await createUser(tx, {
      organizationId: org.id,
      email: `inspector-${suffix}@demo.example`,
      name: "Demo Inspector",
      password: inspectorPassword,
    });
    const sites = [await createSite(tx, org.id, "Main Plant", "MAIN"), await createSite(tx, org.id, "North Depot", "NORTH")];
    const groups = [await createGroup(tx, org.id, "Maintenance", "grp-maintenance"), await createGroup(tx, org.id, "Safety Team", "grp-safety")];
    for (const r of DEMO_ROLES) await createRole(tx, org.id, r);
    const responseTypes = [
      await createResponseType(tx, org.id, {
        name: "Yes/No/N/A",
        inputType: "SELECT",
        options: [
          { label: "Yes", value: "yes" },
          { label: "No", value: "no", requiresNote: true, requiresPhoto: true },
          { label: "N/A", value: "na" },
        ],
      }),
      await createResponseType(tx, org.id, {
        name: "Condition",
        inputType: "MULTI_SELECT",
        options: [
          { label: "Rust", value: "rust" },
          { label: "Leak", value: "leak" },
          { label: "Crack", value: "crack" },
        ],
      }),
      await createResponseType(tx, org.id, { name: "Text", inputType: "TEXT" }),
      await createResponseType(tx, org.id, { name: "Number", inputType: "NUMBER" }),
      await createResponseType(tx, org.id, { name: "Date", inputType: "DATE" }),
      await createResponseType(tx, org.id, { name: "Boolean", inputType: "BOOLEAN" }),
    ];
    const assetTypes = [await createAssetType(tx, org.id, "Forklift"), await createAssetType(tx, org.id, "Fire Extinguisher")];
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
      roles: [...DEMO_ROLES],
      responseTypes,
      assetTypes,
    };
  });
}
export type DemoSeed = Awaited<ReturnType<typeof seedDemo>>;
