import { asc } from "drizzle-orm";
import { ALL_API_KEY_SCOPES, SYNC_SCOPE, type ApiKeyScope } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { organizations } from "@insp/db/schema";
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

/** Organizations, for the CLI (the other listings are the routes' list services). */
export const listings = {
  organizations: (db: DbOrTx) => db.select().from(organizations).orderBy(asc(organizations.createdAt)),
};
