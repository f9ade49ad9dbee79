import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { assets, inspectionAnswers, inspections, sites, templates, users } from "@insp/db/schema";

/** Columns of an inspection summary, with its template, inspector, site and asset. */
export const summaryColumns = {
  id: inspections.id,
  inspectionNumber: inspections.inspectionNumber,
  templateId: inspections.templateId,
  templateVersion: inspections.templateVersion,
  assetId: inspections.assetId,
  assetName: inspections.assetName,
  siteId: inspections.siteId,
  conductedBy: inspections.conductedBy,
  organizationId: inspections.organizationId,
  startedAt: inspections.startedAt,
  completedAt: inspections.completedAt,
  createdAt: inspections.createdAt,
  updatedAt: inspections.updatedAt,
  status: inspections.status,
  templateTitle: templates.title,
  templateType: templates.type,
  inspectorName: users.name,
  inspectorEmail: users.email,
  siteName: sites.name,
  siteCode: sites.code,
  assetRefName: assets.name,
  assetCode: assets.code,
};

/** SELECT of summaries scoped to the organization (the joins repeat the organization so no other tenant's row can appear). */
export function selectSummaries(db: DbOrTx, organizationId: string) {
  return db
    .select(summaryColumns)
    .from(inspections)
    .innerJoin(templates, and(eq(templates.id, inspections.templateId), eq(templates.organizationId, organizationId)))
    .innerJoin(users, and(eq(users.id, inspections.conductedBy), eq(users.organizationId, organizationId)))
    .leftJoin(sites, and(eq(sites.id, inspections.siteId), eq(sites.organizationId, organizationId)))
    .leftJoin(assets, and(eq(assets.id, inspections.assetId), eq(assets.organizationId, organizationId)));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectSummaries>["execute"]>>[number];

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The spec's Inspection summary: absent ids stay absent, site and asset objects only when set. */
export function toSummary(r: Row) {
  return {
    id: r.id,
    inspectionNumber: r.inspectionNumber,
    templateId: r.templateId,
    templateVersion: r.templateVersion,
    ...(r.assetId !== null ? { assetId: r.assetId } : {}),
    ...(r.assetName !== null ? { assetName: r.assetName } : {}),
    ...(r.siteId !== null ? { siteId: r.siteId } : {}),
    conductedBy: r.conductedBy,
    organizationId: r.organizationId,
    startedAt: iso(r.startedAt),
    completedAt: iso(r.completedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    status: r.status,
    template: { id: r.templateId, title: r.templateTitle, type: r.templateType },
    inspector: { id: r.conductedBy, name: r.inspectorName, email: r.inspectorEmail },
    ...(r.siteId !== null && r.siteName !== null ? { site: { id: r.siteId, name: r.siteName, code: r.siteCode } } : {}),
    ...(r.assetId !== null && r.assetRefName !== null ? { asset: { id: r.assetId, name: r.assetRefName, code: r.assetCode } } : {}),
  };
}
export type InspectionSummary = ReturnType<typeof toSummary>;

/** Answer value columns shared by the list (includeAnswers) and the detail. */
export const answerColumns = {
  id: inspectionAnswers.id,
  inspectionId: inspectionAnswers.inspectionId,
  questionId: inspectionAnswers.questionId,
  answerText: inspectionAnswers.answerText,
  answerNumber: inspectionAnswers.answerNumber,
  answerBoolean: inspectionAnswers.answerBoolean,
  answerDate: inspectionAnswers.answerDate,
  answerJson: inspectionAnswers.answerJson,
  responseOptionId: inspectionAnswers.responseOptionId,
  templateOptionId: inspectionAnswers.templateOptionId,
  unitId: inspectionAnswers.unitId,
  unitCategory: inspectionAnswers.unitCategory,
  note: inspectionAnswers.note,
};

export function toAnswer(a: { [K in keyof typeof answerColumns]: unknown }) {
  return {
    id: a.id as string,
    questionId: a.questionId as string,
    answerText: a.answerText as string | null,
    answerNumber: a.answerNumber as number | null,
    answerBoolean: a.answerBoolean as boolean | null,
    answerDate: a.answerDate as string | null,
    answerJson: a.answerJson ?? null,
    responseOptionId: a.responseOptionId as string | null,
    templateOptionId: a.templateOptionId as string | null,
    unitId: a.unitId as string | null,
    unitCategory: a.unitCategory as string | null,
    note: a.note as string | null,
  };
}
