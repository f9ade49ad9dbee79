import type { DbOrTx } from "@insp/db";
import { auditLog } from "@insp/db/schema";

type ActorType = "api_key" | "oauth_client" | "user" | "admin_cli" | "anonymous";

/** Who is acting, and under which request: passed down to every write that audits. */
export interface AuditContext {
  actorType: ActorType;
  actorId: string | null;
  requestId: string | null;
}

/** The operator's CLI: no credential, no request. */
export const ADMIN_CLI: AuditContext = { actorType: "admin_cli", actorId: null, requestId: null };

/** The credential's shape (auth/credentials.ts Principal), without importing upwards. */
type Credential = { kind: "apiKey"; apiKeyId: string } | { kind: "client"; clientId: string } | { kind: "user"; userId: string };

export function auditContextOf(p: Credential, requestId: string | null): AuditContext {
  if (p.kind === "apiKey") return { actorType: "api_key", actorId: p.apiKeyId, requestId };
  if (p.kind === "client") return { actorType: "oauth_client", actorId: p.clientId, requestId };
  return { actorType: "user", actorId: p.userId, requestId };
}

/** One audit entry in the caller's transaction. Field NAMES only: never a value. */
export async function recordAudit(
  tx: DbOrTx,
  ctx: AuditContext,
  e: { organizationId: string; action: string; resourceType: string; resourceId: string | null; changedFields?: string[] },
): Promise<void> {
  await tx.insert(auditLog).values({
    organizationId: e.organizationId,
    actorType: ctx.actorType,
    actorId: ctx.actorId,
    action: e.action,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    changedFields: e.changedFields ?? [],
    requestId: ctx.requestId,
  });
}

/** The keys of `patch` whose value is given (PATCH bodies). */
export const givenFields = (patch: Record<string, unknown>) => Object.keys(patch).filter((k) => patch[k] !== undefined);
