import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "@insp/db";
import {
  assetTypes,
  responseTypeOptions,
  responseTypes,
  templateLogicRules,
  templateQuestionOptions,
  templateQuestions,
  templateSections,
} from "@insp/db/schema";
import { badRequest, isBlank, isUuid } from "../errors.ts";
import { optionKey, planTemplate, type KeptIds, type ResponseTypeInfo, type TemplatePlan } from "./plan.ts";
import type { CreateTemplateInput } from "./types.ts";

/** The content of one template version: its sections, questions, options and rules. */

/** A create body with blank optional ids normalized (a blank assetTypeId is the same as none given). */
export const normalizeInput = (input: CreateTemplateInput): CreateTemplateInput => ({
  ...input,
  assetTypeId: isBlank(input.assetTypeId) ? null : input.assetTypeId,
});

/** Checks a create-shaped body against the organization's data and plans its rows (nothing written). */
export async function planBody(tx: Tx, organizationId: string, input: CreateTemplateInput, kept?: KeptIds): Promise<TemplatePlan> {
  if (input.assetTypeId) {
    if (input.type !== "ASSET") throw badRequest("assetTypeId is only allowed on ASSET templates");
    if (!(await isOrgAssetType(tx, organizationId, input.assetTypeId))) throw badRequest(`Unknown assetTypeId '${input.assetTypeId}'`);
  }
  const rtIds = [...input.sections.flatMap((s) => s.questions), ...input.questions].map((x) => x.responseTypeId).filter((x): x is string => !!x);
  return planTemplate(input, await loadResponseTypes(tx, organizationId, rtIds), undefined, kept);
}

/** Writes the planned rows as version `version` of a template (its template_versions row must exist). */
export async function writeVersionContent(tx: Tx, organizationId: string, templateId: string, version: number, plan: TemplatePlan): Promise<void> {
  const at = { organizationId, templateId, version };
  await insertInChunks(
    tx,
    templateSections,
    plan.sections.map((s) => ({ ...s, ...at })),
  );
  await insertInChunks(
    tx,
    templateQuestions,
    plan.questions.map(({ options: _options, ...question }) => ({ ...question, ...at })),
  );
  await insertInChunks(
    tx,
    templateQuestionOptions,
    plan.questions.flatMap((question) =>
      question.options.map(({ score, ...o }) => ({ ...o, ...at, questionId: question.id, score: score ?? null, scoreNotApplicable: score === null })),
    ),
  );
  await insertInChunks(
    tx,
    templateLogicRules,
    plan.rules.map((r) => ({ ...r, conditionValue: r.conditionValue ?? null, ...at })),
  );
}

/** Copies every row of version `from` to version `to`, ids included (a new version made without a body). */
export async function copyVersionContent(tx: Tx, organizationId: string, templateId: string, from: number, to: number): Promise<void> {
  const scope = sql`organization_id = ${organizationId} and template_id = ${templateId} and version = ${from}`;
  await tx.execute(sql`
    insert into ${templateSections} (id, organization_id, template_id, version, title, description, position)
    select id, organization_id, template_id, ${to}, title, description, position from ${templateSections} where ${scope}`);
  await tx.execute(sql`
    insert into ${templateQuestions} (id, organization_id, template_id, version, section_id, key, text, hint, required, position, response_type_id, input_type)
    select id, organization_id, template_id, ${to}, section_id, key, text, hint, required, position, response_type_id, input_type from ${templateQuestions} where ${scope}`);
  await tx.execute(sql`
    insert into ${templateQuestionOptions} (id, organization_id, template_id, version, question_id, label, value, position, requires_note, requires_photo, score, score_not_applicable, flagged)
    select id, organization_id, template_id, ${to}, question_id, label, value, position, requires_note, requires_photo, score, score_not_applicable, flagged from ${templateQuestionOptions} where ${scope}`);
  await tx.execute(sql`
    insert into ${templateLogicRules} (id, organization_id, template_id, version, source_question_id, target_question_id, condition_type, condition_value, action_type, "order")
    select id, organization_id, template_id, ${to}, source_question_id, target_question_id, condition_type, condition_value, action_type, "order" from ${templateLogicRules} where ${scope}`);
}

/** The ids a new version made from a body may keep from version `version` (plan.ts KeptIds). */
export async function keptIdsOf(tx: Tx, organizationId: string, templateId: string, version: number): Promise<KeptIds> {
  const inVersion = (t: typeof templateSections | typeof templateQuestions | typeof templateQuestionOptions) =>
    and(eq(t.organizationId, organizationId), eq(t.templateId, templateId), eq(t.version, version));
  const [sections, questions, options] = await Promise.all([
    tx
      .select({ id: templateSections.id, title: templateSections.title })
      .from(templateSections)
      .where(inVersion(templateSections))
      .orderBy(asc(templateSections.position)),
    tx.select({ id: templateQuestions.id, key: templateQuestions.key }).from(templateQuestions).where(inVersion(templateQuestions)),
    tx
      .select({ id: templateQuestionOptions.id, questionId: templateQuestionOptions.questionId, value: templateQuestionOptions.value })
      .from(templateQuestionOptions)
      .where(inVersion(templateQuestionOptions)),
  ]);
  const sectionsByTitle = new Map<string, string[]>();
  for (const s of sections) sectionsByTitle.set(s.title, [...(sectionsByTitle.get(s.title) ?? []), s.id]);
  return {
    sectionsByTitle,
    questionByKey: new Map(questions.filter((q) => q.key !== null).map((q) => [q.key!, q.id])),
    optionByValue: new Map(options.map((o) => [optionKey(o.questionId, o.value), o.id])),
  };
}

/** Postgres takes at most 65,535 parameters in one statement; a template's options can pass that (10 per row). */
const MAX_PARAMETERS = 65_535;
/**
 * Drizzle builds a statement on the event loop, about 50 µs per row here: 1,000 rows per statement keep
 * each pause short and were no slower in total than 8,191 (50,000 option rows: about 4 s either way).
 */
const MAX_ROWS_PER_STATEMENT = 1000;

/** Inserts rows in statements of at most 1,000 rows and 65,535 parameters (one per column value of a row). */
async function insertInChunks<T extends PgTable>(tx: Tx, table: T, rows: PgInsertValue<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const perRow = Math.max(1, Object.keys(rows[0]!).length);
  const size = Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMETERS / perRow));
  for (let i = 0; i < rows.length; i += size) await tx.insert(table).values(rows.slice(i, i + size));
}

async function isOrgAssetType(tx: Tx, organizationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await tx
    .select({ id: assetTypes.id })
    .from(assetTypes)
    .where(and(eq(assetTypes.id, id), eq(assetTypes.organizationId, organizationId)))
    .limit(1);
  return !!row;
}

/** The organization's response types among `ids` (malformed ids are simply not found), with their options. */
async function loadResponseTypes(tx: Tx, organizationId: string, ids: string[]): Promise<Map<string, ResponseTypeInfo>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  const result = new Map<string, ResponseTypeInfo>();
  if (wanted.length === 0) return result;
  const types = await tx
    .select({ id: responseTypes.id, name: responseTypes.name, inputType: responseTypes.inputType, archivedAt: responseTypes.archivedAt })
    .from(responseTypes)
    .where(and(eq(responseTypes.organizationId, organizationId), inArray(responseTypes.id, wanted)));
  for (const { archivedAt, ...t } of types) result.set(t.id, { ...t, archived: archivedAt !== null, options: [] });
  if (types.length === 0) return result;
  const options = await tx
    .select()
    .from(responseTypeOptions)
    .where(and(eq(responseTypeOptions.organizationId, organizationId), inArray(responseTypeOptions.responseTypeId, [...result.keys()])))
    .orderBy(asc(responseTypeOptions.position), asc(responseTypeOptions.id));
  for (const o of options) {
    result
      .get(o.responseTypeId)!
      .options.push({ id: o.id, label: o.label, value: o.value, position: o.position, requiresNote: o.requiresNote, requiresPhoto: o.requiresPhoto });
  }
  return result;
}
