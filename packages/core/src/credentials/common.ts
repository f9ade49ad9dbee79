import { sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import type { AuditContext } from "../audit/index.ts";
import type { Principal } from "../auth/credentials.ts";
import { AppError, forbidden } from "../errors.ts";

/** Who manages credentials: a credential of the organization, or the operator's admin CLI (not limited by scopes or quotas). */
export type CredentialActor = Principal | "admin_cli";

/** Admin users and API keys (the route has checked credentials:manage); anyone else is refused. */
export function assertMayManageCredentials(actor: CredentialActor): void {
  if (actor === "admin_cli" || actor.kind === "apiKey") return;
  if (actor.kind === "user" && actor.isAdmin) return;
  throw forbidden("Only admin users can manage API keys and OAuth clients");
}

/**
 * Refuses (409) a new credential past the organization's quota of active ones. Counted under a
 * transaction-scoped advisory lock of the organization and kind, so two creations at once cannot
 * both take the last place. `max` undefined: no quota (the admin CLI).
 */
export async function assertUnderQuota(tx: DbOrTx, organizationId: string, kind: "api-keys" | "oauth-clients", active: () => Promise<number>, max?: number) {
  if (max === undefined) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`credentials:${kind}:${organizationId}`}, 0))`);
  const n = await active();
  if (n < max) return;
  const [what, revoke] = kind === "api-keys" ? ["API keys", "POST /api/api-keys/{id}/revoke"] : ["OAuth clients", "POST /api/oauth-clients/{clientId}/revoke"];
  throw new AppError(
    "conflict",
    `This organization already has ${n} active ${what} (at most ${max}: CREDENTIALS_MAX_ACTIVE_PER_ORG); revoke one it no longer needs first (${revoke})`,
  );
}

export interface IssueOptions {
  audit?: AuditContext;
  pepper?: string;
  /** CREDENTIALS_MAX_ACTIVE_PER_ORG; undefined: no quota (the admin CLI). */
  maxActive?: number;
}

export const iso = (d: Date | null) => d?.toISOString() ?? null;

export interface Page {
  limit: number;
  offset: number;
}
export const pagination = (q: Page, rows: number, total: number) => ({ total, limit: q.limit, offset: q.offset, hasMore: q.offset + rows < total });
