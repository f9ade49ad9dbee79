import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@insp/db";
import {
  assetTypes,
  responseTypes,
  templateLogicRules,
  templateQuestionOptions,
  templateQuestions,
  templateSections,
  templateVersions,
  templates,
} from "@insp/db/schema";
import { forbidden, isUuid, notFound } from "../errors.ts";
import type { TemplateListItem, TemplateStatus, TemplateType } from "./types.ts";

/** Row reads of the templates aggregate. Every query filters on organization_id, except assertTemplateAccess (see there). */

const listColumns = {
  id: templates.id,
  title: templates.title,
  initialTitle: templates.initialTitle,
  description: templates.description,
  type: templates.type,
  status: templates.status,
  version: templates.version,
  isActive: templates.isActive,
  assetTypeId: templates.assetTypeId,
  assetTypeName: assetTypes.name,
  assetTypeMetadata: templates.assetTypeMetadata,
  organizationId: templates.organizationId,
  createdAt: templates.createdAt,
  updatedAt: templates.updatedAt,
  /** The draft waiting to be published (one at most: template_versions_one_draft_key). */
  draftVersion: sql<number | null>`(select v.version from template_versions v where v.template_id = ${templates.id} and v.status = 'DRAFT')`,
};

const selectTemplates = (db: DbOrTx) =>
  db
    .select(listColumns)
    .from(templates)
    .leftJoin(assetTypes, and(eq(assetTypes.id, templates.assetTypeId), eq(assetTypes.organizationId, templates.organizationId)));

type TemplateRow = Awaited<ReturnType<typeof selectTemplates>>[number];

export function toListItem(row: TemplateRow): TemplateListItem {
  return {
    id: row.id,
    title: row.title,
    initialTitle: row.initialTitle,
    type: row.type as TemplateType,
    status: row.status as TemplateStatus,
    version: row.version,
    isActive: row.isActive,
    assetTypeId: row.assetTypeId,
    ...(row.assetTypeId && row.assetTypeName !== null ? { assetType: { id: row.assetTypeId, name: row.assetTypeName } } : {}),
    assetTypeMetadata: row.assetTypeMetadata ?? null,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    draftVersion: row.draftVersion,
  };
}

/** Templates of an organization, newest first (id as tie-break). publishedOnly: PUBLISHED only; else every status. */
export async function listTemplates(db: DbOrTx, organizationId: string, opts: { publishedOnly: boolean }): Promise<TemplateListItem[]> {
  const where = opts.publishedOnly
    ? and(eq(templates.organizationId, organizationId), eq(templates.status, "PUBLISHED"))
    : eq(templates.organizationId, organizationId);
  const rows = await selectTemplates(db).where(where).orderBy(desc(templates.createdAt), desc(templates.id));
  return rows.map(toListItem);
}

/** Summaries (the list's shape) of the given templates of an organization, in no particular order. */
export async function templatesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<TemplateListItem[]> {
  if (ids.length === 0) return [];
  const rows = await selectTemplates(db).where(and(eq(templates.organizationId, organizationId), inArray(templates.id, ids)));
  return rows.map(toListItem);
}

/**
 * Resolves a template id for an organization: 404 when malformed or unknown, 403 when it
 * belongs to another organization (the spec's GET /api/templates/{id} status codes).
 */
export async function assertTemplateAccess(db: DbOrTx, organizationId: string, templateId: string): Promise<void> {
  if (!isUuid(templateId)) throw notFound("Template not found");
  // Deliberately not scoped by organization_id (the one exception to "every query filters on it"):
  // the spec answers 403 for another organization's template, which needs to know the row exists.
  // Only its organization id is read, and nothing of it leaves this function but the 403.
  const [row] = await db.select({ organizationId: templates.organizationId }).from(templates).where(eq(templates.id, templateId)).limit(1);
  if (!row) throw notFound("Template not found");
  if (row.organizationId !== organizationId) throw forbidden("Template belongs to another organization");
}

/**
 * The template as one version shows it: the version's own title, description, type and asset
 * type, the template's status and dates, and where the version stands (its status, the current
 * version, the draft).
 */
const selectVersion = (db: DbOrTx, version: number | undefined) =>
  db
    .select({
      ...listColumns,
      title: templateVersions.title,
      description: templateVersions.description,
      type: templateVersions.type,
      version: templateVersions.version,
      assetTypeId: templateVersions.assetTypeId,
      versionStatus: templateVersions.status,
      currentVersion: templates.version,
    })
    .from(templates)
    .innerJoin(templateVersions, and(eq(templateVersions.templateId, templates.id), eq(templateVersions.version, version ?? templates.version)))
    .leftJoin(assetTypes, and(eq(assetTypes.id, templateVersions.assetTypeId), eq(assetTypes.organizationId, templates.organizationId)));

/**
 * Every row of one version of a template of the organization (the current version when none is
 * named), each list ordered; null when the template or the version is not found in the org.
 */
export async function loadTemplateRows(db: DbOrTx, organizationId: string, templateId: string, version?: number) {
  if (!isUuid(templateId)) return null;
  const [template] = await selectVersion(db, version)
    .where(and(eq(templates.id, templateId), eq(templates.organizationId, organizationId)))
    .limit(1);
  if (!template) return null;
  const v = template.version;
  const inTemplate = (t: { templateId: AnyPgColumn; version: AnyPgColumn; organizationId: AnyPgColumn }) =>
    and(eq(t.templateId, templateId), eq(t.version, v), eq(t.organizationId, organizationId));
  const [sections, questions, rules, options] = await Promise.all([
    db.select().from(templateSections).where(inTemplate(templateSections)).orderBy(asc(templateSections.position), asc(templateSections.id)),
    db
      .select({
        id: templateQuestions.id,
        sectionId: templateQuestions.sectionId,
        key: templateQuestions.key,
        text: templateQuestions.text,
        hint: templateQuestions.hint,
        required: templateQuestions.required,
        position: templateQuestions.position,
        inputType: templateQuestions.inputType,
        responseTypeId: responseTypes.id,
        responseTypeName: responseTypes.name,
        responseTypeInputType: responseTypes.inputType,
        responseTypeUiLabel: responseTypes.uiLabel,
      })
      .from(templateQuestions)
      .leftJoin(responseTypes, and(eq(responseTypes.id, templateQuestions.responseTypeId), eq(responseTypes.organizationId, organizationId)))
      .where(inTemplate(templateQuestions))
      .orderBy(asc(templateQuestions.position), asc(templateQuestions.id)),
    db.select().from(templateLogicRules).where(inTemplate(templateLogicRules)).orderBy(asc(templateLogicRules.order), asc(templateLogicRules.id)),
    db
      .select()
      .from(templateQuestionOptions)
      .where(inTemplate(templateQuestionOptions))
      .orderBy(asc(templateQuestionOptions.position), asc(templateQuestionOptions.id)),
  ]);
  return { template, sections, questions, options, rules };
}
export type TemplateRows = NonNullable<Awaited<ReturnType<typeof loadTemplateRows>>>;
