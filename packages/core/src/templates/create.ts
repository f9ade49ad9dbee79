import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@insp/db";
import { templateVersions, templates, users } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { badRequest, isUuid } from "../errors.ts";
import { normalizeInput, planBody, writeVersionContent } from "./content.ts";
import { toDetail } from "./detail.ts";
import { createdMessage } from "./plan.ts";
import { assertVersionRoom } from "./quota.ts";
import { loadTemplateRows } from "./read.ts";
import type { CreateTemplateInput, TemplateDetail } from "./types.ts";

export interface CreateTemplateResult {
  message: string;
  template: TemplateDetail;
  skippedRules: string[];
}

/**
 * POST /api/templates: validates the body against the organization's data and the logic
 * engine, then writes the template, its version 1, its sections, questions, copied options and
 * rules in one transaction. Always DRAFT, version 1; initialTitle is the name.
 */
export async function createTemplate(
  db: Db,
  cmd: { organizationId: string; createdBy: string; input: CreateTemplateInput; audit: AuditContext; maxVersions?: number },
): Promise<CreateTemplateResult> {
  const { organizationId, createdBy } = cmd;
  const input = normalizeInput(cmd.input);
  return db.transaction(async (tx) => {
    await assertVersionRoom(tx, organizationId, cmd.maxVersions);
    if (!(await isOrgUser(tx, organizationId, createdBy))) throw badRequest("createdBy must be the id of a user of your organization");
    const plan = await planBody(tx, organizationId, input);
    const face = { title: input.name, description: input.description ?? null, type: input.type, assetTypeId: input.assetTypeId ?? null };
    const [row] = await tx
      .insert(templates)
      .values({ organizationId, ...face, initialTitle: input.name, status: "DRAFT", version: 1, isActive: true, createdBy })
      .returning({ id: templates.id });
    const templateId = row!.id;
    await tx.insert(templateVersions).values({ organizationId, templateId, version: 1, status: "DRAFT", ...face, createdBy });
    await recordChange(tx, { organizationId, resourceType: "template", resourceId: templateId, change: "created" });
    await recordAudit(tx, cmd.audit, { organizationId, action: "template.created", resourceType: "template", resourceId: templateId });
    await writeVersionContent(tx, organizationId, templateId, 1, plan);

    const rows = await loadTemplateRows(tx, organizationId, templateId);
    return {
      message: createdMessage(plan.skipped),
      template: toDetail(rows!),
      skippedRules: plan.skipped.map((s) => `logicRules[${s.index}]: ${s.reason}`),
    };
  });
}

export async function isOrgUser(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)))
    .limit(1);
  return !!row;
}
