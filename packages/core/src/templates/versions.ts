import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@insp/db";
import { templateVersions, templates } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, badRequest } from "../errors.ts";
import { copyVersionContent, keptIdsOf, normalizeInput, planBody, writeVersionContent } from "./content.ts";
import { isOrgUser, type CreateTemplateResult } from "./create.ts";
import { toDetail } from "./detail.ts";
import { assertVersionRoom } from "./quota.ts";
import { assertTemplateAccess, loadTemplateRows } from "./read.ts";
import type { CreateTemplateInput, TemplateVersionSummary, VersionStatus } from "./types.ts";

/**
 * POST /api/templates/{id}/versions: version n+1 as a DRAFT, from a create-shaped body or, with
 * none, as a copy of the current version (every id kept). From a body, what the current version
 * already had keeps its id (plan.ts KeptIds). One draft at a time: a second is a 409, and so is
 * a template that is still a draft itself (publish version 1 first) or archived.
 */
export async function createTemplateVersion(
  db: Db,
  cmd: { organizationId: string; templateId: string; createdBy: string | null; input: CreateTemplateInput | null; audit: AuditContext; maxVersions?: number },
): Promise<CreateTemplateResult> {
  const { organizationId, templateId } = cmd;
  await assertTemplateAccess(db, organizationId, templateId);
  return db.transaction(async (tx) => {
    // Row lock: versions of one template are made one at a time (the one-draft index backs it up).
    const [t] = await tx
      .select({ status: templates.status, version: templates.version })
      .from(templates)
      .where(and(eq(templates.id, templateId), eq(templates.organizationId, organizationId)))
      .for("update");
    if (!t) throw new AppError("not_found", "Template not found");
    if (t.status === "ARCHIVED") throw new AppError("conflict", "An archived template cannot get a new version");
    const [draft] = await tx
      .select({ version: templateVersions.version })
      .from(templateVersions)
      .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.status, "DRAFT")));
    if (draft) throw new AppError("conflict", `Template already has a draft (version ${draft.version}); publish it before creating another version`);
    await assertVersionRoom(tx, organizationId, cmd.maxVersions);
    if (cmd.createdBy !== null && !(await isOrgUser(tx, organizationId, cmd.createdBy)))
      throw badRequest("createdBy must be the id of a user of your organization");

    const [{ next }] = (await tx.execute(
      sql`select coalesce(max(version), 0) + 1 as next from ${templateVersions} where template_id = ${templateId}`,
    )) as unknown as [{ next: number }];
    const version = Number(next);
    let skipped: { index: number; reason: string }[] = [];
    if (cmd.input) {
      const input = normalizeInput(cmd.input);
      const plan = await planBody(tx, organizationId, input, await keptIdsOf(tx, organizationId, templateId, t.version));
      skipped = plan.skipped;
      const face = { title: input.name, description: input.description ?? null, type: input.type, assetTypeId: input.assetTypeId ?? null };
      await tx.insert(templateVersions).values({ organizationId, templateId, version, status: "DRAFT", ...face, createdBy: cmd.createdBy });
      await writeVersionContent(tx, organizationId, templateId, version, plan);
    } else {
      await tx.execute(sql`
        insert into ${templateVersions} (organization_id, template_id, version, status, title, description, type, asset_type_id, created_by)
        select organization_id, template_id, ${version}, 'DRAFT', title, description, type, asset_type_id, ${cmd.createdBy}::uuid
        from ${templateVersions} where template_id = ${templateId} and version = ${t.version}`);
      await copyVersionContent(tx, organizationId, templateId, t.version, version);
    }
    await recordChange(tx, { organizationId, resourceType: "template", resourceId: templateId, change: "draft_created" });
    await recordAudit(tx, cmd.audit, {
      organizationId,
      action: "template.version.created",
      resourceType: "template",
      resourceId: templateId,
      changedFields: ["draftVersion"],
    });

    const n = skipped.length;
    return {
      message: `Version ${version} created as DRAFT${n ? `; ${n} logic rule${n === 1 ? "" : "s"} skipped: ${skipped.map((s) => s.reason).join("; ")}` : ""}`,
      template: toDetail((await loadTemplateRows(tx, organizationId, templateId, version))!),
      skippedRules: skipped.map((s) => `logicRules[${s.index}]: ${s.reason}`),
    };
  });
}

/** GET /api/templates/{id}/versions: every version, oldest first, with its status and times. */
export async function listTemplateVersions(db: Db, organizationId: string, templateId: string): Promise<TemplateVersionSummary[]> {
  await assertTemplateAccess(db, organizationId, templateId);
  const rows = await db
    .select({
      version: templateVersions.version,
      status: templateVersions.status,
      title: templateVersions.title,
      createdBy: templateVersions.createdBy,
      createdAt: templateVersions.createdAt,
      publishedAt: templateVersions.publishedAt,
      supersededAt: templateVersions.supersededAt,
    })
    .from(templateVersions)
    .where(and(eq(templateVersions.organizationId, organizationId), eq(templateVersions.templateId, templateId)))
    .orderBy(asc(templateVersions.version));
  return rows.map((r) => ({
    version: r.version,
    status: r.status as VersionStatus,
    title: r.title,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    publishedAt: r.publishedAt?.toISOString() ?? null,
    supersededAt: r.supersededAt?.toISOString() ?? null,
  }));
}
