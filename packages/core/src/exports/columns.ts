import type postgres from "postgres";
import type { Cell } from "./format.ts";
import { answerText } from "../inspections/answer-text.ts";
import type { SummaryRow } from "../inspections/summary.ts";

/** The summary columns of every export, in order (docs/exports.md, Columns). */
export const SUMMARY_HEADERS = [
  "id",
  "inspectionNumber",
  "templateId",
  "templateTitle",
  "templateVersion",
  "status",
  "reviewState",
  "startedAt",
  "completedAt",
  "createdAt",
  "updatedAt",
  "inspectorId",
  "inspectorName",
  "inspectorEmail",
  "siteId",
  "siteName",
  "siteCode",
  "assetId",
  "assetName",
  "assetCode",
  "score",
  "maxScore",
  "scorePercentage",
  "flaggedCount",
  "latitude",
  "longitude",
  "locationAccuracyMeters",
] as const;

export function summaryCells(r: SummaryRow): Cell[] {
  return [
    r.id,
    r.inspection_number,
    r.template_id,
    r.template_title,
    r.template_version,
    r.status,
    r.review_state,
    r.started_at,
    r.completed_at,
    r.created_at,
    r.updated_at,
    r.conducted_by,
    r.inspector_name,
    r.inspector_email,
    r.site_id,
    r.site_name,
    r.site_code,
    r.asset_id,
    r.asset_name ?? r.asset_ref_name,
    r.asset_code,
    r.score,
    r.max_score,
    r.score_percentage,
    r.flagged_count,
    r.latitude,
    r.longitude,
    r.location_accuracy_meters,
  ];
}

/**
 * The answer columns of a template: one per question, named by its key (its text when it has no
 * key), across every version of the template, so a question a new version keeps under the same key
 * stays one column. Columns follow the newest version's order; questions only older versions had
 * come after them, newest first. `columnOf` maps (version, question id) to a column index.
 */
export interface AnswerColumns {
  headers: string[];
  columnOf: Map<string, number>;
  /**
   * (version, option id) and (version, question id, value) -> label, to render choices: a single
   * choice names its option by id, a multiple choice (answerJson) by value.
   */
  optionLabel: Map<string, string>;
}

const vq = (version: number, id: string) => `${version}:${id}`;
const byValue = (version: number, questionId: string, value: string) => `${version}:${questionId}=${value}`;

export async function answerColumnsOf(sql: postgres.Sql, organizationId: string, templateId: string): Promise<AnswerColumns> {
  const questions = await sql<{ id: string; version: number; key: string | null; text: string }[]>`
    select q.id, q.version, q.key, q.text
    from template_questions q
    left join template_sections s on s.template_id = q.template_id and s.version = q.version and s.id = q.section_id
    where q.organization_id = ${organizationId} and q.template_id = ${templateId}
    order by q.version desc, s.position nulls first, q.position, q.id`;
  const headers: string[] = [];
  const byName = new Map<string, number>();
  const columnOf = new Map<string, number>();
  for (const q of questions) {
    const name = q.key ?? q.text;
    let col = byName.get(name);
    if (col === undefined) {
      col = headers.length;
      headers.push(name);
      byName.set(name, col);
    }
    // Two questions of one version with the same text and no key: the second gets its own column.
    else if ([...columnOf.entries()].some(([k, c]) => c === col && k.startsWith(`${q.version}:`))) {
      col = headers.length;
      headers.push(`${name} (${headers.filter((h) => h === name || h.startsWith(`${name} (`)).length + 1})`);
    }
    columnOf.set(vq(q.version, q.id), col);
  }
  const options = await sql<{ id: string; version: number; question_id: string; value: string; label: string }[]>`
    select id, version, question_id, value, label from template_question_options where organization_id = ${organizationId} and template_id = ${templateId}`;
  const optionLabel = new Map<string, string>();
  for (const o of options) {
    optionLabel.set(vq(o.version, o.id), o.label);
    optionLabel.set(byValue(o.version, o.question_id, o.value), o.label);
  }
  return { headers, columnOf, optionLabel };
}

export interface AnswerRow {
  inspection_id: string;
  question_id: string;
  answer_text: string | null;
  answer_number: number | null;
  answer_boolean: boolean | null;
  answer_date: string | null;
  answer_json: unknown;
  template_option_id: string | null;
  response_option_id: string | null;
  unit_id: string | null;
  note: string | null;
}

/**
 * An answer's cell: the one rule of inspections/answer-text.ts (the PDF report uses it too), with
 * the note in the same cell after " | note: ". Options are looked up in the inspection's version.
 */
export function renderAnswer(a: AnswerRow, version: number, cols: AnswerColumns): Cell {
  const labelOf = (token: string) => cols.optionLabel.get(vq(version, token)) ?? cols.optionLabel.get(byValue(version, a.question_id, token));
  const values = {
    answerText: a.answer_text,
    answerNumber: a.answer_number,
    answerBoolean: a.answer_boolean,
    answerDate: a.answer_date,
    answerJson: a.answer_json,
    responseOptionId: a.response_option_id,
    templateOptionId: a.template_option_id,
    unitId: a.unit_id,
    note: a.note,
  };
  return answerText(values, labelOf, { note: "inline" });
}

export const columnKey = vq;
