import { and, count, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { ALL_API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from "@insp/contracts";
import type { DbOrTx } from "@insp/db";
import { apiKeys } from "@insp/db/schema";
import { ADMIN_CLI, recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, badRequest, forbidden, isUuid, notFound } from "../errors.ts";
import { API_KEY_PREFIX, displayPrefix, generateSecret, hashSecret } from "../auth/secrets.ts";
import { assertRoom } from "../quota.ts";
import { assertMayManageCredentials, credentialQuota, iso, pagination, type CredentialActor, type IssueOptions, type Page } from "./common.ts";

/** An API key as lists, reads, feeds and webhooks show it: never the key or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  status: "active" | "expired" | "revoked";
  createdBy: { type: string; id: string | null };
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

type Row = typeof apiKeys.$inferSelect;

function toView(r: Row, now = new Date()): ApiKeyView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes as ApiKeyScope[],
    status: r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= now ? "expired" : "active",
    createdBy: { type: r.createdByType, id: r.createdById },
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    expiresAt: iso(r.expiresAt),
    revokedAt: iso(r.revokedAt),
  };
}

const activeKeys = and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)));

export interface NewApiKey {
  name: string;
  scopes: readonly string[];
  expiresAt?: string | null;
}

/**
 * A new API key: the key itself is in this answer only, and only its hash is stored. An API key
 * creating one may give only scopes it holds itself (403 naming the first it lacks); an admin user
 * and the operator's CLI may give any. Records api_key.created (change log, so webhooks) and an audit entry.
 */
export async function issueApiKey(db: DbOrTx, organizationId: string, actor: CredentialActor, input: NewApiKey, opts: IssueOptions = {}) {
  assertMayManageCredentials(actor);
  const unknown = input.scopes.filter((s) => !isApiKeyScope(s));
  if (unknown.length) throw new AppError("invalid", `Unknown API key scope ${unknown.join(", ")}: the scopes are ${ALL_API_KEY_SCOPES.join(", ")}`);
  if (actor !== "admin_cli" && actor.kind === "apiKey") {
    const beyond = input.scopes.find((s) => !actor.scopes.includes(s));
    if (beyond) throw forbidden(`API key lacks the scope ${beyond}: a key may only give scopes it holds itself`);
  }
  if (input.expiresAt && !(Date.parse(input.expiresAt) > Date.now())) throw badRequest("Invalid request body", ["expiresAt: expiresAt must be in the future"]);
  const granted = ALL_API_KEY_SCOPES.filter((s) => input.scopes.includes(s));
  const audit = opts.audit ?? ADMIN_CLI;
  const key = generateSecret(API_KEY_PREFIX);
  const row = await db.transaction(async (tx) => {
    const active = tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), activeKeys));
    await assertRoom(tx, organizationId, credentialQuota("api-keys", active, opts.maxActive));
    const [r] = await tx
      .insert(apiKeys)
      .values({
        organizationId,
        name: input.name,
        prefix: displayPrefix(key),
        keyHash: hashSecret(key, opts.pepper),
        scopes: granted,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        createdByType: audit.actorType,
        createdById: audit.actorId,
      })
      .returning();
    await recordChange(tx, { organizationId, resourceType: "api_key", resourceId: r!.id, change: "created" });
    await recordAudit(tx, audit, {
      organizationId,
      action: "api_key.created",
      resourceType: "api_key",
      resourceId: r!.id,
      changedFields: ["name", "scopes", ...(input.expiresAt ? ["expiresAt"] : [])],
    });
    return r!;
  });
  return { ...toView(row), apiKey: key };
}

export async function listApiKeys(db: DbOrTx, organizationId: string, actor: CredentialActor, q: Page) {
  assertMayManageCredentials(actor);
  const where = eq(apiKeys.organizationId, organizationId);
  const rows = await db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(q.limit).offset(q.offset);
  const total =
    rows.length > 0 && rows.length < q.limit ? q.offset + rows.length : Number((await db.select({ n: count() }).from(apiKeys).where(where))[0]?.n ?? 0);
  return { apiKeys: rows.map((r) => toView(r)), pagination: pagination(q, rows.length, total) };
}

async function loadKey(db: DbOrTx, organizationId: string, id: string): Promise<Row> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId)))
    : [];
  if (!row) throw notFound("API key not found");
  return row;
}

export async function getApiKey(db: DbOrTx, organizationId: string, actor: CredentialActor, id: string): Promise<ApiKeyView> {
  assertMayManageCredentials(actor);
  return toView(await loadKey(db, organizationId, id));
}

/**
 * Revokes a key: refused at authentication from now on. A key may revoke itself. Revoking a
 * revoked key changes nothing (no event) and answers it as it is.
 */
export async function revokeApiKey(
  db: DbOrTx,
  organizationId: string,
  actor: CredentialActor,
  id: string,
  audit: AuditContext = ADMIN_CLI,
): Promise<ApiKeyView> {
  assertMayManageCredentials(actor);
  return db.transaction(async (tx) => {
    const current = await loadKey(tx, organizationId, id);
    if (current.revokedAt) return toView(current);
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, current.id), eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) return toView(await loadKey(tx, organizationId, id));
    await recordChange(tx, { organizationId, resourceType: "api_key", resourceId: row.id, change: "revoked" });
    await recordAudit(tx, audit, { organizationId, action: "api_key.revoked", resourceType: "api_key", resourceId: row.id, changedFields: ["revokedAt"] });
    return toView(row);
  });
}

/** Keys by id, as views (feeds and webhook bodies). */
export async function apiKeysByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<ApiKeyView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), inArray(apiKeys.id, valid)));
  return rows.map((r) => toView(r));
}
