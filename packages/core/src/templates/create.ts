import { and, asc, eq, inArray } from "drizzle-orm";
import type { PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "@insp/db";
import { assetTypes, responseTypeOptions, responseTypes, templateLogicRules, templateQuestionOptions, templateQuestions, templateSections, templates, users } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { badRequest, isBlank, isUuid } from "../errors.ts";
import { toDetail } from "./detail.ts";
import { createdMessage, planTemplate, type ResponseTypeInfo } from "./plan.ts";
import { loadTemplateRows } from "./queries.ts";
import type { CreateTemplateInput, TemplateDetail } from "./types.ts";

export interface CreateTemplateResult {
  message: string;
  template: TemplateDetail;
  skippedRules: string[];
}

/**
 * POST /api/templates: validates the body against the organization's data and the logic
 * engine, then writes the template, its sections, questions, copied options and rules in
 * one transaction. Always DRAFT, version 1; initialTitle is the name.
 */
export async function createTemplate(db: Db, cmd: { organizationId: string; createdBy: string; input: CreateTemplateInput; audit: AuditContext }): Promise<CreateTemplateResult> {
  const { organizationId, createdBy } = cmd;
  // A blank assetTypeId is the same as none given (as for every optional field).
  const input = { ...cmd.input, assetTypeId: isBlank(cmd.input.assetTypeId) ? null : cmd.input.assetTypeId };
  return db.transaction(async (tx) => {
    if (!(await isOrgUser(tx, organizationId, createdBy))) throw badRequest("createdBy must be the id of a user of your organization");
    if (input.assetTypeId) {
      if (input.type !== "ASSET") throw badRequest("assetTypeId is only allowed on ASSET templates");
      if (!(await isOrgAssetType(tx, organizationId, input.assetTypeId))) throw badRequest(`Unknown assetTypeId '${input.assetTypeId}'`);
    }
    const rtIds = [...input.sections.flatMap((s) => s.questions), ...input.questions].map((x) => x.responseTypeId).filter((x): x is string => !!x);
    const plan = planTemplate(input, await loadResponseTypes(tx, organizationId, rtIds));

    const [row] = await tx
      .insert(templates)
      .values({
        organizationId,
        title: input.name,
        initialTitle: input.name,
        description: input.description ?? null,
        type: input.type,
        status: "DRAFT",
        version: 1,
        isActive: true,
        assetTypeId: input.assetTypeId ?? null,
        createdBy,
      })
      .returning({ id: templates.id });
    const templateId = row!.id;
    await recordChange(tx, { organizationId, resourceType: "template", resourceId: templateId, change: "created" });
    await recordAudit(tx, cmd.audit, { organizationId, action: "template.created", resourceType: "template", resourceId: templateId });
    await insertInChunks(tx, templateSections, plan.sections.map((s) => ({ ...s, organizationId, templateId })));
    await insertInChunks(tx, templateQuestions, plan.questions.map(({ options: _options, ...question }) => ({ ...question, organizationId, templateId })));
    await insertInChunks(tx, templateQuestionOptions, plan.questions.flatMap((question) => question.options.map((o) => ({ ...o, organizationId, questionId: question.id }))));
    await insertInChunks(tx, templateLogicRules, plan.rules.map((r) => ({ ...r, conditionValue: r.conditionValue ?? null, organizationId, templateId })));

    const rows = await loadTemplateRows(tx, organizationId, templateId);
    return {
      message: createdMessage(plan.skipped),
      template: toDetail(rows!),
      skippedRules: plan.skipped.map((s) => `logicRules[${s.index}]: ${s.reason}`),
    };
  });
}

/** Postgres takes at most 65,535 parameters in one statement; a template's options can pass that (8 per row). */
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

async function isOrgUser(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [row] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.organizationId, organizationId))).limit(1);
  return !!row;
}

async function isOrgAssetType(tx: Tx, organizationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await tx.select({ id: assetTypes.id }).from(assetTypes).where(and(eq(assetTypes.id, id), eq(assetTypes.organizationId, organizationId))).limit(1);
  return !!row;
}

/** The organization's response types among `ids` (malformed ids are simply not found), with their options. */
async function loadResponseTypes(tx: Tx, organizationId: string, ids: string[]): Promise<Map<string, ResponseTypeInfo>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  const result = new Map<string, ResponseTypeInfo>();
  if (wanted.length === 0) return result;
  const types = await tx
    .select({ id: responseTypes.id, name: responseTypes.name, inputType: responseTypes.inputType })
    .from(responseTypes)
    .where(and(eq(responseTypes.organizationId, organizationId), inArray(responseTypes.id, wanted)));
  for (const t of types) result.set(t.id, { ...t, options: [] });
  if (types.length === 0) return result;
  const options = await tx
    .select()
    .from(responseTypeOptions)
    .where(and(eq(responseTypeOptions.organizationId, organizationId), inArray(responseTypeOptions.responseTypeId, [...result.keys()])))
    .orderBy(asc(responseTypeOptions.position), asc(responseTypeOptions.id));
  for (const o of options) {
    result.get(o.responseTypeId)!.options.push({ id: o.id, label: o.label, value: o.value, position: o.position, requiresNote: o.requiresNote, requiresPhoto: o.requiresPhoto });
  }
  return result;
}
