import { and, count, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { webhookEndpoints, type WebhookEndpointRow } from "@insp/db/schema";
import { givenFields, recordAudit, type AuditContext } from "../audit/index.ts";
import { badRequest, isUuid, notFound } from "../errors.ts";
import { urlProblem, type TargetPolicy } from "./address.ts";
import { assertMayManage, assertMayReceive, whyMayNotManage, type EndpointActor, type WebhookEventType } from "./events.ts";
import { assertRoom } from "../quota.ts";
import { newWebhookSecret, type SecretBox } from "./secrets.ts";

/** After a rotation the previous secret keeps signing (beside the new one) this long. */
const PREVIOUS_SECRET_HOURS = 24;

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** Why the service disabled it; null when enabled or disabled by a client. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

function toEndpointView(r: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: r.id,
    url: r.url,
    events: r.events as WebhookEventType[],
    description: r.description,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const notFoundError = () => notFound("Webhook endpoint not found");

function checkUrl(url: string, policy: TargetPolicy) {
  const problem = urlProblem(url, policy);
  if (problem) throw badRequest("Invalid request body", [`url: ${problem}`]);
}

/**
 * A new endpoint with its secret. At most `maxEndpoints` per organization (WEBHOOK_MAX_ENDPOINTS_PER_ORG;
 * the admin CLI gives none): past it, 409, since only deleting one makes room. The count and the
 * insert run under a transaction-scoped advisory lock of the organization, so two registrations at
 * once cannot both take the last place.
 */
export async function createEndpoint(
  db: DbOrTx,
  box: SecretBox,
  policy: TargetPolicy,
  organizationId: string,
  input: { url: string; events: WebhookEventType[]; description?: string | null },
  audit: AuditContext,
  maxEndpoints?: number,
): Promise<WebhookEndpointView & { secret: string }> {
  checkUrl(input.url, policy);
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    await assertRoom(tx, organizationId, {
      key: "webhook-endpoints",
      count: tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organizationId)),
      max: maxEndpoints,
      what: "webhook endpoints",
      setting: "WEBHOOK_MAX_ENDPOINTS_PER_ORG",
      room: "delete one it no longer needs first (DELETE /api/webhooks/{id})",
    });
    const [r] = await tx
      .insert(webhookEndpoints)
      .values({ organizationId, url: input.url, events: [...new Set(input.events)], description: input.description ?? null, secretEnc: box.seal(secret) })
      .returning();
    await recordAudit(tx, audit, { organizationId, action: "webhook.created", resourceType: "webhook_endpoint", resourceId: r!.id });
    return r!;
  });
  return { ...toEndpointView(row), secret };
}

/**
 * Every endpoint of the organization, so that whoever manages webhooks sees where its data goes.
 * An endpoint the actor may not manage (assertMayManage) shows only the origin of its url:
 * receivers often put their own token in the path or query (chat webhooks do), and whoever
 * knows it can post to the receiver.
 */
export async function listEndpoints(db: DbOrTx, organizationId: string, actor: EndpointActor): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return rows.map((r) => {
    const view = toEndpointView(r);
    return whyMayNotManage(actor, view.events) ? { ...view, url: originOf(view.url) } : view;
  });
}

/** Scheme, host and port of a url the endpoint checks accepted; nothing of its path or query. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

/**
 * The endpoint, when it is the organization's (else 404) and the actor may act on it (else 403,
 * assertMayManage). With `lock`, the row is locked for the caller's transaction, so that the
 * events checked are those of the row the caller then changes.
 */
export async function loadEndpoint(db: DbOrTx, organizationId: string, id: string, actor: EndpointActor, lock = false): Promise<WebhookEndpointRow> {
  if (!isUuid(id)) throw notFoundError();
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFoundError();
  assertMayManage(actor, row.events as WebhookEventType[]);
  return row;
}

export async function getEndpoint(db: DbOrTx, organizationId: string, id: string, actor: EndpointActor): Promise<WebhookEndpointView> {
  return toEndpointView(await loadEndpoint(db, organizationId, id, actor));
}

/**
 * PATCH: any of url, events, description, enabled. Enabling clears why it was disabled and its
 * failure streak. The actor needs the right to receive the endpoint's events (whatever field
 * changes) and the events it is given.
 */
export async function updateEndpoint(
  db: DbOrTx,
  policy: TargetPolicy,
  organizationId: string,
  id: string,
  patch: { url?: string; events?: WebhookEventType[]; description?: string | null; enabled?: boolean },
  actor: EndpointActor,
  audit: AuditContext,
): Promise<WebhookEndpointView> {
  return db.transaction(async (tx) => {
    await loadEndpoint(tx, organizationId, id, actor, true);
    if (patch.events && actor !== "admin_cli") assertMayReceive(actor, patch.events);
    if (patch.url !== undefined) checkUrl(patch.url, policy);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled === true ? { enabled: true, disabledReason: null, failingSince: null } : {}),
        ...(patch.enabled === false ? { enabled: false, disabledReason: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
      .returning();
    if (!row) throw notFoundError();
    await recordAudit(tx, audit, {
      organizationId,
      action: "webhook.updated",
      resourceType: "webhook_endpoint",
      resourceId: id,
      changedFields: givenFields(patch),
    });
    return toEndpointView(row);
  });
}

export async function deleteEndpoint(db: DbOrTx, organizationId: string, id: string, actor: EndpointActor, audit: AuditContext): Promise<void> {
  await db.transaction(async (tx) => {
    await loadEndpoint(tx, organizationId, id, actor, true);
    await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)));
    await recordAudit(tx, audit, { organizationId, action: "webhook.deleted", resourceType: "webhook_endpoint", resourceId: id });
  });
}

/** A new secret; the current one keeps signing beside it for 24 hours (receivers switch without a gap). */
export async function rotateEndpointSecret(
  db: DbOrTx,
  box: SecretBox,
  organizationId: string,
  id: string,
  actor: EndpointActor,
  audit: AuditContext,
): Promise<{ secret: string; previousSecretExpiresAt: string }> {
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    const current = await loadEndpoint(tx, organizationId, id, actor, true);
    const [r] = await tx
      .update(webhookEndpoints)
      .set({
        secretEnc: box.seal(secret),
        previousSecretEnc: current.secretEnc,
        previousSecretExpiresAt: sql`now() + make_interval(hours => ${PREVIOUS_SECRET_HOURS})`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
      .returning({ expires: webhookEndpoints.previousSecretExpiresAt });
    if (!r) throw notFoundError();
    await recordAudit(tx, audit, {
      organizationId,
      action: "webhook.secret_rotated",
      resourceType: "webhook_endpoint",
      resourceId: id,
      changedFields: ["secret"],
    });
    return r;
  });
  return { secret, previousSecretExpiresAt: row.expires!.toISOString() };
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
export function signingSecrets(
  box: SecretBox,
  r: Pick<WebhookEndpointRow, "secretEnc" | "previousSecretEnc" | "previousSecretExpiresAt">,
  now = new Date(),
): string[] {
  const secrets = [box.open(r.secretEnc)];
  if (r.previousSecretEnc && r.previousSecretExpiresAt && r.previousSecretExpiresAt > now) {
    // Sealed under an earlier WEBHOOK_SECRET_KEY (the operator changed it, then rotated): sign with the new secret only.
    try {
      secrets.push(box.open(r.previousSecretEnc));
    } catch {
      // unreadable: skipped
    }
  }
  return secrets;
}
