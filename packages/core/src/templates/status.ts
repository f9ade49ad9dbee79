import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "@insp/db";
import { templateVersions, templates } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError } from "../errors.ts";
import { toDetail } from "./detail.ts";
import { assertTemplateAccess, loadTemplateRows } from "./read.ts";
import type { TemplateDetail, TemplateStatus } from "./types.ts";

/**
 * Status transitions (extension; the spec leaves publication to "the application"):
 *   publish: the draft version becomes the current, PUBLISHED one (version 1 of a new template,
 *            or version n+1 made with POST /versions; the version it replaces is SUPERSEDED);
 *            PUBLISHED without a draft stays as is; ARCHIVED -> 409 (archiving is final).
 *   archive: DRAFT | PUBLISHED -> ARCHIVED with isActive false; ARCHIVED stays as is.
 * Repeating a transition is a no-op that answers the current detail, so retries are safe.
 */
export type TemplateAction = "publish" | "archive";

export async function changeTemplateStatus(
  db: Db,
  organizationId: string,
  templateId: string,
  action: TemplateAction,
  audit: AuditContext,
): Promise<TemplateDetail> {
  await assertTemplateAccess(db, organizationId, templateId);
  return db.transaction(async (tx) => {
    const scope = and(eq(templates.id, templateId), eq(templates.organizationId, organizationId));
    // Row lock: two concurrent transitions of one template apply one after the other.
    const [row] = await tx.select({ status: templates.status }).from(templates).where(scope).for("update");
    if (!row) throw new AppError("not_found", "Template not found");
    const status = row.status as TemplateStatus;
    if (action === "publish" && status === "ARCHIVED") throw new AppError("conflict", "An archived template cannot be published");
    if (action === "publish") {
      const [draft] = await tx
        .select()
        .from(templateVersions)
        .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.status, "DRAFT")));
      if (draft) await publishVersion(tx, organizationId, templateId, draft, audit);
    }
    if (action === "archive" && status !== "ARCHIVED") {
      await tx
        .update(templates)
        .set({ status: "ARCHIVED", isActive: false, archivedAt: sql`now()` })
        .where(scope);
      await recordChange(tx, { organizationId, resourceType: "template", resourceId: templateId, change: "archived" });
      await recordAudit(tx, audit, {
        organizationId,
        action: "template.archived",
        resourceType: "template",
        resourceId: templateId,
        changedFields: ["status", "isActive", "archivedAt"],
      });
    }
    return toDetail((await loadTemplateRows(tx, organizationId, templateId))!);
  });
}

/** The draft becomes the current version: the template shows its title, type and asset type from now on. */
async function publishVersion(
  tx: Tx,
  organizationId: string,
  templateId: string,
  draft: typeof templateVersions.$inferSelect,
  audit: AuditContext,
): Promise<void> {
  const ofTemplate = eq(templateVersions.templateId, templateId);
  await tx
    .update(templateVersions)
    .set({ status: "SUPERSEDED", supersededAt: sql`now()` })
    .where(and(ofTemplate, eq(templateVersions.status, "PUBLISHED"), ne(templateVersions.version, draft.version)));
  await tx
    .update(templateVersions)
    .set({ status: "PUBLISHED", publishedAt: sql`now()` })
    .where(and(ofTemplate, eq(templateVersions.version, draft.version)));
  await tx
    .update(templates)
    .set({
      status: "PUBLISHED",
      isActive: true,
      publishedAt: sql`now()`,
      version: draft.version,
      title: draft.title,
      description: draft.description,
      type: draft.type,
      assetTypeId: draft.assetTypeId,
    })
    .where(and(eq(templates.id, templateId), eq(templates.organizationId, organizationId)));
  await recordChange(tx, { organizationId, resourceType: "template", resourceId: templateId, change: "published" });
  const changedFields = draft.version === 1 ? ["status", "isActive", "publishedAt"] : ["version", "publishedAt"];
  await recordAudit(tx, audit, { organizationId, action: "template.published", resourceType: "template", resourceId: templateId, changedFields });
}
