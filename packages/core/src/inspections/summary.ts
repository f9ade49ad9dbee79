import { createHash } from "node:crypto";
import type postgres from "postgres";
import { isoText } from "@insp/db";
import { inspectionAnswers } from "@insp/db/schema";

/*
 * Summaries of inspections with their template, inspector, site and asset, in plain SQL
 * (postgres.js, prepared once): the list runs it on every request, and building it with Drizzle
 * cost the API more than the query cost Postgres.
 */
/**
 * A timestamp as the API writes it (ISO 8601 UTC with milliseconds, as Date.toISOString), made
 * by Postgres: the client Drizzle configures hands timestamps over as Postgres text.
 */

/** The summary columns of inspection `i` joined to `t`, `u`, `s`, `a` (see selectSummaries). */
const summaryColumns = (sql: postgres.Sql) => sql`
  i.id, i.inspection_number, i.template_id, i.template_version, i.asset_id, i.asset_name, i.site_id, i.conducted_by,
  i.organization_id, ${sql.unsafe(isoText("i.started_at"))} as started_at, ${sql.unsafe(isoText("i.completed_at"))} as completed_at,
  ${sql.unsafe(isoText("i.created_at"))} as created_at, ${sql.unsafe(isoText("i.updated_at"))} as updated_at, i.status, i.revision,
  i.score, i.max_score, i.score_percentage, i.flagged_count, i.review_state, i.latitude, i.longitude, i.location_accuracy_meters,
  t.title as template_title, t.type as template_type, u.name as inspector_name, u.email as inspector_email,
  s.name as site_name, s.code as site_code, a.name as asset_ref_name, a.code as asset_code`;

/**
 * The joins of a summary; every one repeats the organization, so no other tenant's row can appear.
 * The template's title and type are those of the version the inspection was made with.
 */
const summaryJoins = (sql: postgres.Sql, organizationId: string) => sql`
  join template_versions t on t.template_id = i.template_id and t.version = i.template_version and t.organization_id = ${organizationId}
  join users u on u.id = i.conducted_by and u.organization_id = ${organizationId}
  left join sites s on s.id = i.site_id and s.organization_id = ${organizationId}
  left join assets a on a.id = i.asset_id and a.organization_id = ${organizationId}`;

/** Summaries of the given inspection ids, newest first. */
export function selectSummaries(sql: postgres.Sql, organizationId: string, ids: string[]) {
  return sql<SummaryRow[]>`
    select ${summaryColumns(sql)}
    from inspections i ${summaryJoins(sql, organizationId)}
    where i.organization_id = ${organizationId} and i.id = any(${ids}::uuid[])
    order by i.created_at desc, i.id desc`;
}

/**
 * The ids of one page, from the organization's (filter, created_at, id) index alone, each row
 * with `total`; the summaries follow by primary key (selectSummaries). Two statements whose
 * plans do not depend on the values: they run as prepared statements, and Postgres keeps a
 * generic plan after five runs. In ONE statement (the page joined to its summaries) the generic
 * plan joined every inspection of the organization (40 ms at 100,000, and 7 s per request at
 * 5,000 with an earlier form), so Postgres planned it again on every request instead: 0.6 ms of
 * its CPU per request, about a fifth of the list's throughput (bench/README.md).
 */
export function selectPageIds(
  sql: postgres.Sql,
  where: postgres.PendingQuery<postgres.Row[]>,
  total: postgres.PendingQuery<postgres.Row[]>,
  limit: number,
  offset: number,
) {
  return sql<{ id: string; total: number }[]>`
    select id, ${total} as total from inspections where ${where} order by created_at desc, id desc limit ${limit} offset ${offset}`;
}

export interface SummaryRow {
  id: string;
  inspection_number: string;
  template_id: string;
  template_version: number;
  asset_id: string | null;
  asset_name: string | null;
  site_id: string | null;
  conducted_by: string;
  organization_id: string;
  started_at: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  status: string;
  revision: number;
  score: number;
  max_score: number;
  score_percentage: number | null;
  flagged_count: number;
  review_state: string;
  latitude: number | null;
  longitude: number | null;
  location_accuracy_meters: number | null;
  template_title: string;
  template_type: string;
  inspector_name: string | null;
  inspector_email: string;
  site_name: string | null;
  site_code: string | null;
  asset_ref_name: string | null;
  asset_code: string | null;
}

/** The spec's Inspection summary: absent ids stay absent, site and asset objects only when set. */
export function toSummary(r: SummaryRow) {
  return {
    id: r.id,
    inspectionNumber: r.inspection_number,
    templateId: r.template_id,
    templateVersion: r.template_version,
    ...(r.asset_id !== null ? { assetId: r.asset_id } : {}),
    ...(r.asset_name !== null ? { assetName: r.asset_name } : {}),
    ...(r.site_id !== null ? { siteId: r.site_id } : {}),
    conductedBy: r.conducted_by,
    organizationId: r.organization_id,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    status: r.status,
    template: { id: r.template_id, title: r.template_title, type: r.template_type },
    inspector: { id: r.conducted_by, name: r.inspector_name, email: r.inspector_email },
    ...(r.site_id !== null && r.site_name !== null ? { site: { id: r.site_id, name: r.site_name, code: r.site_code } } : {}),
    ...(r.asset_id !== null && r.asset_ref_name !== null ? { asset: { id: r.asset_id, name: r.asset_ref_name, code: r.asset_code } } : {}),
    score: r.score,
    maxScore: r.max_score,
    scorePercentage: r.score_percentage,
    flaggedCount: r.flagged_count,
    reviewState: r.review_state,
    location:
      r.latitude === null || r.longitude === null
        ? null
        : { latitude: r.latitude, longitude: r.longitude, ...(r.location_accuracy_meters !== null ? { accuracyMeters: r.location_accuracy_meters } : {}) },
  };
}
export type InspectionSummary = ReturnType<typeof toSummary>;

/**
 * What the detail shows of an inspection's corrective actions beyond their revisions: how many,
 * the sum of their revisions (moves with every change of one), how many are overdue now (an action
 * becomes overdue without a change), and a hash of their assignees' names and e-mails.
 */
export interface ActionsStamp {
  count: number;
  revisions: number;
  overdue: number;
  assignees: string;
}
const NO_ACTIONS: ActionsStamp = { count: 0, revisions: 0, overdue: 0, assignees: "" };

/** The actions stamp of one inspection (for the detail's ETag: a changed action changes the detail). */
export async function actionsStamp(sql: postgres.Sql, organizationId: string, inspectionId: string): Promise<ActionsStamp> {
  const [row] = await sql<ActionsStamp[]>`
    select count(*)::int as count, coalesce(sum(a.revision), 0)::int as revisions,
      (count(*) filter (where a.status in ('OPEN', 'IN_PROGRESS') and a.due_at < now()))::int as overdue,
      coalesce(md5(string_agg(coalesce(u.name, '') || '|' || coalesce(u.email, ''), ',' order by a.id)), '') as assignees
    from corrective_actions a
    left join users u on u.id = a.assignee_id and u.organization_id = ${organizationId}
    where a.organization_id = ${organizationId} and a.inspection_id = ${inspectionId}`;
  return row ?? NO_ACTIONS;
}

/**
 * A short hash of what a summary shows of other rows (template version title and type,
 * inspector, site, asset): part of the detail's ETag with the revision, so a renamed site or
 * inspector is not served as "not modified".
 */
export function referencesFingerprint(s: InspectionSummary, actions: ActionsStamp = NO_ACTIONS): string {
  const refs = [
    s.template,
    s.inspector,
    s.siteId ?? null,
    "site" in s ? s.site : null,
    s.assetId ?? null,
    s.assetName ?? null,
    "asset" in s ? s.asset : null,
    actions,
    s.reviewState,
  ];
  return createHash("sha256").update(JSON.stringify(refs)).digest("hex").slice(0, 8);
}

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
  flagged: inspectionAnswers.flagged,
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
    flagged: a.flagged as boolean,
  };
}
