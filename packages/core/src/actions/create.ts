import { and, eq, inArray } from "drizzle-orm";
import type { AnswerActionInputType } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { correctiveActions, inspections, templateQuestions, users } from "@insp/db/schema";
import { givenFields, recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { badRequest, isUuid } from "../errors.ts";
import { getAction } from "./read.ts";
import { ACTION_INVALID, type ActionView } from "./types.ts";

/** POST /api/actions after schema validation (contracts CreateActionBody). */
export interface CreateActionInput extends AnswerActionInputType {
  inspectionId?: string;
  questionId?: string;
}

const prefix = (label: string) => (label ? `${label}: ` : "");

/**
 * Problems of assignees: each assigneeId given must be an enabled user of the organization. The
 * users found are locked against deletion (`for key share`) until the caller's transaction ends,
 * so an insert that follows in it cannot fail on the foreign key.
 */
export async function assigneeProblems(
  db: DbOrTx,
  organizationId: string,
  items: { label: string; assigneeId: string | null | undefined }[],
): Promise<string[]> {
  const ids = [...new Set(items.map((i) => i.assigneeId).filter((v): v is string => typeof v === "string" && isUuid(v)))];
  const found = ids.length
    ? await db
        .select({ id: users.id, disabled: users.disabled })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), inArray(users.id, ids)))
        .for("key share")
    : [];
  const byId = new Map(found.map((u) => [u.id, u]));
  return items.flatMap(({ label, assigneeId }) => {
    if (assigneeId === undefined || assigneeId === null) return [];
    const user = isUuid(assigneeId) ? byId.get(assigneeId.toLowerCase()) : undefined;
    if (!user) return [`${prefix(label)}assigneeId '${assigneeId}' is not a user of this organization`];
    if (user.disabled) return [`${prefix(label)}assigneeId '${assigneeId}' is a disabled user: assign the action to someone who can act on it`];
    return [];
  });
}

/**
 * Validation messages for actions raised with inspection answers (the import and PATCH of
 * inspections call it before their transaction; the fields' formats are checked by the
 * contract's AnswerActionInput): `${label}: assigneeId 'x' is not a user of this organization`.
 * [] when every item is fine.
 */
export async function checkActionInputs(db: DbOrTx, organizationId: string, items: { label: string; input: AnswerActionInputType }[]): Promise<string[]> {
  const blank = items.filter((i) => typeof i.input.title !== "string" || i.input.title.trim() === "").map((i) => `${prefix(i.label)}title is required`);
  return [
    ...blank,
    ...(await assigneeProblems(
      db,
      organizationId,
      items.map((i) => ({ label: i.label, assigneeId: i.input.assigneeId })),
    )),
  ];
}

/** inspectionId must be the organization's, questionId a question of its template version. */
async function targetProblems(db: DbOrTx, organizationId: string, inspectionId: string | undefined, questionId: string | undefined): Promise<string[]> {
  if (inspectionId === undefined) return questionId === undefined ? [] : ["questionId needs inspectionId: a question is one of an inspection's"];
  const [inspection] = isUuid(inspectionId)
    ? await db
        .select({ templateId: inspections.templateId, version: inspections.templateVersion })
        .from(inspections)
        .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, inspectionId)))
        .for("key share")
    : [];
  if (!inspection) return [`inspectionId '${inspectionId}' is not an inspection of this organization`];
  if (questionId === undefined) return [];
  const [question] = isUuid(questionId)
    ? await db
        .select({ id: templateQuestions.id })
        .from(templateQuestions)
        .where(
          and(
            eq(templateQuestions.organizationId, organizationId),
            eq(templateQuestions.templateId, inspection.templateId),
            eq(templateQuestions.version, inspection.version),
            eq(templateQuestions.id, questionId),
          ),
        )
    : [];
  if (!question) return [`questionId '${questionId}' is not a question of the inspection's template (version ${inspection.version})`];
  return [];
}

type NewAction = AnswerActionInputType & { inspectionId?: string | null; questionId?: string | null };

/** Inserts actions with their change events (action.created) and audit entries, in the caller's transaction. */
async function insertActions(tx: Tx, organizationId: string, actor: AuditContext, items: NewAction[]): Promise<string[]> {
  if (!items.length) return [];
  const rows = await tx
    .insert(correctiveActions)
    .values(
      items.map((i) => ({
        organizationId,
        title: i.title.trim(),
        description: i.description ?? null,
        priority: i.priority ?? "MEDIUM",
        assigneeId: i.assigneeId ?? null,
        dueAt: i.dueAt ? new Date(i.dueAt) : null,
        inspectionId: i.inspectionId ?? null,
        questionId: i.questionId ?? null,
        createdByType: actor.actorType,
        createdById: actor.actorId,
      })),
    )
    .returning({ id: correctiveActions.id });
  for (const [n, { id }] of rows.entries()) {
    await recordChange(tx, { organizationId, resourceType: "action", resourceId: id, change: "created" });
    await recordAudit(tx, actor, { organizationId, action: "action.created", resourceType: "action", resourceId: id, changedFields: givenFields(items[n]!) });
  }
  return rows.map((r) => r.id);
}

/**
 * POST /api/actions: validates what the schema cannot (the assignee, the inspection and its
 * question, all of the caller's organization: 400 with every problem in details), then inserts
 * the action with its change event and audit entry in one transaction.
 */
export async function createAction(db: Db, organizationId: string, actor: AuditContext, input: CreateActionInput): Promise<ActionView> {
  const id = await db.transaction(async (tx) => {
    const details = [
      ...(await checkActionInputs(tx, organizationId, [{ label: "", input }])),
      ...(await targetProblems(tx, organizationId, input.inspectionId, input.questionId)),
    ];
    if (details.length) throw badRequest(ACTION_INVALID, details);
    const [made] = await insertActions(tx, organizationId, actor, [input]);
    return made!;
  });
  return getAction(db, organizationId, id);
}

/**
 * Actions raised with an inspection's answers (its import or PATCH), inserted in the caller's
 * transaction with their change events and audit entries. The caller has checked the inputs
 * (checkActionInputs) and that each questionId is a question of the inspection's template version.
 */
export async function insertInspectionActions(
  tx: Tx,
  organizationId: string,
  actor: AuditContext,
  inspectionId: string,
  items: { questionId: string; input: AnswerActionInputType }[],
): Promise<void> {
  await insertActions(
    tx,
    organizationId,
    actor,
    items.map((i) => ({ ...i.input, inspectionId, questionId: i.questionId })),
  );
}
