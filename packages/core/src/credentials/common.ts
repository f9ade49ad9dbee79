import type { SQLWrapper } from "drizzle-orm";
import type { AuditContext } from "../audit/index.ts";
import type { Principal } from "../auth/credentials.ts";
import { forbidden } from "../errors.ts";
import type { RowQuota } from "../quota.ts";

/** Who manages credentials: a credential of the organization, or the operator's admin CLI (not limited by scopes or quotas). */
export type CredentialActor = Principal | "admin_cli";

/** Admin users and API keys (the route has checked credentials:manage); anyone else is refused. */
export function assertMayManageCredentials(actor: CredentialActor): void {
  if (actor === "admin_cli" || actor.kind === "apiKey") return;
  if (actor.kind === "user" && actor.isAdmin) return;
  throw forbidden("Only admin users can manage API keys and OAuth clients");
}

/** The quota of active credentials of one kind (CREDENTIALS_MAX_ACTIVE_PER_ORG; `max` undefined: the admin CLI, not limited). */
export function credentialQuota(kind: "api-keys" | "oauth-clients", count: SQLWrapper, max?: number): RowQuota {
  const [what, revoke] =
    kind === "api-keys" ? ["active API keys", "POST /api/api-keys/{id}/revoke"] : ["active OAuth clients", "POST /api/oauth-clients/{clientId}/revoke"];
  return { key: `credentials:${kind}`, count, max, what, setting: "CREDENTIALS_MAX_ACTIVE_PER_ORG", room: `revoke one it no longer needs first (${revoke})` };
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
