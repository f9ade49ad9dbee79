import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { SCIM_SCOPE, SYNC_SCOPE, type ClientScope } from "@insp/contracts";
import type { DbOrTx } from "@insp/db";
import { oauthClients } from "@insp/db/schema";
import { ADMIN_CLI, recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, isUuid, notFound } from "../errors.ts";
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, generateSecret, hashSecret } from "../auth/secrets.ts";
import { assertRoom } from "../quota.ts";
import { assertMayManageCredentials, credentialQuota, iso, pagination, type CredentialActor, type IssueOptions, type Page } from "./common.ts";

/** An OAuth client as lists, reads, feeds and webhooks show it: never a secret or its hash. */
export interface OAuthClientView {
  id: string;
  clientId: string;
  name: string;
  scopes: ClientScope[];
  status: "active" | "revoked";
  createdAt: string;
  lastUsedAt: string | null;
  previousSecretExpiresAt: string | null;
  revokedAt: string | null;
}

type Row = typeof oauthClients.$inferSelect;

const CLIENT_SCOPES: readonly string[] = [SYNC_SCOPE, SCIM_SCOPE];

function toView(r: Row, now = new Date()): OAuthClientView {
  return {
    id: r.id,
    clientId: r.clientId,
    name: r.name,
    scopes: r.scopes as ClientScope[],
    status: r.revokedAt ? "revoked" : "active",
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    previousSecretExpiresAt: r.previousSecretExpiresAt && r.previousSecretExpiresAt > now && !r.revokedAt ? r.previousSecretExpiresAt.toISOString() : null,
    revokedAt: iso(r.revokedAt),
  };
}

/**
 * A new OAuth client (client-credentials grant) with scopes among employees:sync and scim; the
 * secret is in this answer only, stored as a hash. Records oauth_client.created and an audit entry
 * (the audit log names a client by its clientId, as it always has; the change log by its row id).
 */
export async function issueOAuthClient(
  db: DbOrTx,
  organizationId: string,
  actor: CredentialActor,
  input: { name: string; scopes: readonly string[] },
  opts: IssueOptions = {},
) {
  assertMayManageCredentials(actor);
  const unknown = input.scopes.filter((s) => !CLIENT_SCOPES.includes(s));
  if (unknown.length) throw new AppError("invalid", `Unknown OAuth client scope ${unknown.join(", ")}: the scopes are ${CLIENT_SCOPES.join(", ")}`);
  const scopes = CLIENT_SCOPES.filter((s) => input.scopes.includes(s));
  const audit = opts.audit ?? ADMIN_CLI;
  const clientId = generateSecret(CLIENT_ID_PREFIX, 12);
  const clientSecret = generateSecret(CLIENT_SECRET_PREFIX);
  const row = await db.transaction(async (tx) => {
    const active = tx
      .select({ n: count() })
      .from(oauthClients)
      .where(and(eq(oauthClients.organizationId, organizationId), isNull(oauthClients.revokedAt)));
    await assertRoom(tx, organizationId, credentialQuota("oauth-clients", active, opts.maxActive));
    const [r] = await tx
      .insert(oauthClients)
      .values({ organizationId, name: input.name, clientId, secretHash: hashSecret(clientSecret, opts.pepper), scopes })
      .returning();
    await recordChange(tx, { organizationId, resourceType: "oauth_client", resourceId: r!.id, change: "created" });
    await recordAudit(tx, audit, {
      organizationId,
      action: "oauth_client.created",
      resourceType: "oauth_client",
      resourceId: r!.clientId,
      changedFields: ["name", "scopes"],
    });
    return r!;
  });
  return { ...toView(row), clientSecret };
}

export async function listOAuthClients(db: DbOrTx, organizationId: string, actor: CredentialActor, q: Page) {
  assertMayManageCredentials(actor);
  const where = eq(oauthClients.organizationId, organizationId);
  const rows = await db.select().from(oauthClients).where(where).orderBy(desc(oauthClients.createdAt), desc(oauthClients.id)).limit(q.limit).offset(q.offset);
  const total =
    rows.length > 0 && rows.length < q.limit ? q.offset + rows.length : Number((await db.select({ n: count() }).from(oauthClients).where(where))[0]?.n ?? 0);
  return { oauthClients: rows.map((r) => toView(r)), pagination: pagination(q, rows.length, total) };
}

async function loadClient(db: DbOrTx, organizationId: string, clientId: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), eq(oauthClients.organizationId, organizationId)));
  if (!row) throw notFound("OAuth client not found");
  return row;
}

export async function getOAuthClient(db: DbOrTx, organizationId: string, actor: CredentialActor, clientId: string): Promise<OAuthClientView> {
  assertMayManageCredentials(actor);
  return toView(await loadClient(db, organizationId, clientId));
}

/**
 * A new secret. The current one becomes the previous secret, still accepted for `graceSeconds`
 * (OAUTH_CLIENT_SECRET_GRACE_SECONDS) so the HR system can switch without downtime; a secret from
 * an earlier rotation is dropped. 0: the previous secret is refused at once. A revoked client is a 409.
 */
export async function rotateOAuthClientSecret(
  db: DbOrTx,
  organizationId: string,
  actor: CredentialActor,
  clientId: string,
  graceSeconds: number,
  opts: { audit?: AuditContext; pepper?: string } = {},
) {
  assertMayManageCredentials(actor);
  const clientSecret = generateSecret(CLIENT_SECRET_PREFIX);
  const row = await db.transaction(async (tx) => {
    const current = await loadClient(tx, organizationId, clientId);
    if (current.revokedAt) throw new AppError("conflict", "OAuth client is revoked: create a new one");
    const [r] = await tx
      .update(oauthClients)
      .set({
        secretHash: hashSecret(clientSecret, opts.pepper),
        previousSecretHash: graceSeconds > 0 ? current.secretHash : null,
        previousSecretExpiresAt: graceSeconds > 0 ? sql`now() + make_interval(secs => ${graceSeconds})` : null,
      })
      .where(and(eq(oauthClients.id, current.id), isNull(oauthClients.revokedAt)))
      .returning();
    if (!r) throw new AppError("conflict", "OAuth client is revoked: create a new one");
    await recordChange(tx, { organizationId, resourceType: "oauth_client", resourceId: r.id, change: "rotated" });
    await recordAudit(tx, opts.audit ?? ADMIN_CLI, {
      organizationId,
      action: "oauth_client.rotated",
      resourceType: "oauth_client",
      resourceId: r.clientId,
      changedFields: ["secret"],
    });
    return r;
  });
  return { ...toView(row), clientSecret };
}

/** Revokes a client: its secrets and its tokens are refused from now on. Revoking a revoked client changes nothing. */
export async function revokeOAuthClient(
  db: DbOrTx,
  organizationId: string,
  actor: CredentialActor,
  clientId: string,
  audit: AuditContext = ADMIN_CLI,
): Promise<OAuthClientView> {
  assertMayManageCredentials(actor);
  return db.transaction(async (tx) => {
    const current = await loadClient(tx, organizationId, clientId);
    if (current.revokedAt) return toView(current);
    const [row] = await tx
      .update(oauthClients)
      .set({ revokedAt: sql`now()`, previousSecretHash: null, previousSecretExpiresAt: null })
      .where(and(eq(oauthClients.id, current.id), isNull(oauthClients.revokedAt)))
      .returning();
    if (!row) return toView(await loadClient(tx, organizationId, clientId));
    await recordChange(tx, { organizationId, resourceType: "oauth_client", resourceId: row.id, change: "revoked" });
    await recordAudit(tx, audit, {
      organizationId,
      action: "oauth_client.revoked",
      resourceType: "oauth_client",
      resourceId: row.clientId,
      changedFields: ["revokedAt"],
    });
    return toView(row);
  });
}

/** Clients by their row id (the change log's), as views (feeds and webhook bodies). */
export async function oauthClientsByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<OAuthClientView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const rows = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.organizationId, organizationId), inArray(oauthClients.id, valid)));
  return rows.map((r) => toView(r));
}
