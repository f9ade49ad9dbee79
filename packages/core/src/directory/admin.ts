import { asc, eq, sql } from "drizzle-orm";
import { ALL_API_KEY_SCOPES, SYNC_SCOPE, type ApiKeyScope } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { assetTypes, groups, organizations, responseTypeOptions, responseTypes, roles, sites, users } from "@insp/db/schema";
import { AppError } from "../errors.ts";
import { hashPassword } from "../auth/passwords.ts";
import { ADMIN_CLI, type AuditContext } from "../audit/index.ts";
import { issueApiKey, issueOAuthClient } from "../credentials/index.ts";
import { createRole } from "./roles.ts";

/**
 * Operator actions behind the admin CLI. API keys and OAuth clients are made by the
 * credentials services (credentials/), as over HTTP; secrets are returned once and stored only as hashes.
 */

/** Role names the spec mentions (Processing rule 5): every new organization starts with them. */
export const KNOWN_ROLES = ["admin", "inspector", "site_manager", "FIELD_TECH"] as const;

/** A new organization with the spec's known roles (docs/organization-administration.md, Roles). */
export async function createOrganization(db: Db | Tx, name: string) {
  return db.transaction(async (tx) => {
    const [org] = await tx.insert(organizations).values({ name }).returning();
    for (const role of KNOWN_ROLES) await createRole(tx, org!.id, ADMIN_CLI, { name: role });
    return org!;
  });
}

/**
 * An API key with `scopes` (default: every scope there is; docs/authentication.md, API key scopes),
 * made by the operator (no quota): the same service as POST /api/api-keys.
 */
export async function createApiKey(
  db: DbOrTx,
  organizationId: string,
  name: string,
  pepper?: string,
  audit: AuditContext = ADMIN_CLI,
  scopes: readonly ApiKeyScope[] = ALL_API_KEY_SCOPES,
  expiresAt?: string | null,
) {
  return issueApiKey(db, organizationId, "admin_cli", { name, scopes, expiresAt }, { audit, pepper });
}

/** An OAuth client made by the operator (no quota): the same service as POST /api/oauth-clients. */
export async function createOAuthClient(
  db: DbOrTx,
  organizationId: string,
  name: string,
  pepper?: string,
  scopes: string[] = [SYNC_SCOPE],
  audit: AuditContext = ADMIN_CLI,
) {
  return issueOAuthClient(db, organizationId, "admin_cli", { name, scopes }, { audit, pepper });
}

export async function createUser(
  db: DbOrTx,
  input: { organizationId: string; email: string; name?: string; password?: string; isAdmin?: boolean; username?: string },
) {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email})`)
    .limit(1);
  if (taken) throw new AppError("conflict", `A user with e-mail ${input.email} already exists`);
  const [row] = await db
    .insert(users)
    .values({
      organizationId: input.organizationId,
      email: input.email,
      username: input.username ?? input.email,
      name: input.name ?? null,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      isAdmin: input.isAdmin ?? false,
    })
    .returning({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin });
  return row!;
}

/** Listings for the CLI; never includes a secret or its hash. */
export const listings = {
  organizations: (db: DbOrTx) => db.select().from(organizations).orderBy(asc(organizations.createdAt)),
  users: (db: DbOrTx, org: string) =>
    db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        isAdmin: users.isAdmin,
        disabled: users.disabled,
        mustResetPassword: users.mustResetPassword,
      })
      .from(users)
      .where(eq(users.organizationId, org))
      .orderBy(asc(users.email)),
  sites: (db: DbOrTx, org: string) =>
    db.select({ id: sites.id, name: sites.name, code: sites.code }).from(sites).where(eq(sites.organizationId, org)).orderBy(asc(sites.code)),
  groups: (db: DbOrTx, org: string) =>
    db.select({ id: groups.id, name: groups.name, externalId: groups.externalId }).from(groups).where(eq(groups.organizationId, org)).orderBy(asc(groups.name)),
  roles: (db: DbOrTx, org: string) => db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.organizationId, org)).orderBy(asc(roles.name)),
  assetTypes: (db: DbOrTx, org: string) =>
    db.select({ id: assetTypes.id, name: assetTypes.name }).from(assetTypes).where(eq(assetTypes.organizationId, org)).orderBy(asc(assetTypes.name)),
  responseTypes: async (db: DbOrTx, org: string) => {
    const types = await db.select().from(responseTypes).where(eq(responseTypes.organizationId, org)).orderBy(asc(responseTypes.name));
    const options = await db.select().from(responseTypeOptions).where(eq(responseTypeOptions.organizationId, org)).orderBy(asc(responseTypeOptions.position));
    return types.map((t) => ({
      id: t.id,
      name: t.name,
      inputType: t.inputType,
      options: options.filter((o) => o.responseTypeId === t.id).map((o) => ({ id: o.id, label: o.label, value: o.value })),
    }));
  },
};
