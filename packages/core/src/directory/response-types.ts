import { and, asc, countDistinct, eq, inArray } from "drizzle-orm";
import type { CreateResponseTypeBody, PatchResponseTypeBody, ResponseTypeListQuery, ResponseTypeView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { responseTypeOptions, responseTypes, templateQuestions } from "@insp/db/schema";
import { badRequest } from "../errors.ts";
import { blockedBy, countsById, directoryNoun, type DirectoryActor } from "./common.ts";

/**
 * Response types over HTTP (/api/response-types) and the admin CLI's create-response-type: one
 * implementation. A template question copies its response type's options when the template is
 * saved, so changing or archiving a response type never changes a template that uses it.
 */

type Row = typeof responseTypes.$inferSelect;
type OptionRow = typeof responseTypeOptions.$inferSelect;

const CHOICE_TYPES: readonly string[] = ["SELECT", "MULTI_SELECT"];

const toView = (r: Row, options: OptionRow[], templates: number): ResponseTypeView => ({
  id: r.id,
  name: r.name,
  inputType: r.inputType,
  uiLabel: r.uiLabel,
  options: options.map((o) => ({
    id: o.id,
    label: o.label,
    value: o.value,
    position: o.position,
    requiresNote: o.requiresNote,
    requiresPhoto: o.requiresPhoto,
  })),
  templates,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Templates (any version) with a question of each type. */
async function templatesUsing(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  return countsById(
    await db
      .select({ id: templateQuestions.responseTypeId, n: countDistinct(templateQuestions.templateId) })
      .from(templateQuestions)
      .where(and(eq(templateQuestions.organizationId, organizationId), inArray(templateQuestions.responseTypeId, ids)))
      .groupBy(templateQuestions.responseTypeId),
  );
}

async function views(db: DbOrTx, organizationId: string, rows: Row[]): Promise<ResponseTypeView[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const used = await templatesUsing(db, organizationId, ids);
  const options = await db
    .select()
    .from(responseTypeOptions)
    .where(and(eq(responseTypeOptions.organizationId, organizationId), inArray(responseTypeOptions.responseTypeId, ids)))
    .orderBy(asc(responseTypeOptions.position), asc(responseTypeOptions.id));
  return rows.map((r) =>
    toView(
      r,
      options.filter((o) => o.responseTypeId === r.id),
      used.get(r.id) ?? 0,
    ),
  );
}

const noun = directoryNoun<Row, ResponseTypeView>({
  table: responseTypes,
  kind: "response_type",
  label: "Response type",
  path: "response-types",
  unique: {
    column: responseTypes.name,
    taken: (name) => `A response type named '${name}' already exists in this organization (archived ones keep their name)`,
  },
  display: (r) => r.name,
  views,
});

/** The organization's response types among `ids` (feeds' and webhooks' loader). */
export const responseTypesByIds = noun.byIds;

export const getResponseType = noun.get;

export async function listResponseTypes(db: DbOrTx, organizationId: string, q: ResponseTypeListQuery) {
  const p = await noun.list(db, organizationId, q, responseTypes.name);
  return { responseTypes: p.items, pagination: p.pagination };
}

async function writeOptions(tx: Tx, organizationId: string, responseTypeId: string, options: NonNullable<CreateResponseTypeBody["options"]>): Promise<void> {
  await tx
    .delete(responseTypeOptions)
    .where(and(eq(responseTypeOptions.organizationId, organizationId), eq(responseTypeOptions.responseTypeId, responseTypeId)));
  if (!options.length) return;
  await tx.insert(responseTypeOptions).values(
    options.map((o, i) => ({
      organizationId,
      responseTypeId,
      label: o.label,
      value: o.value,
      position: i,
      requiresNote: o.requiresNote ?? false,
      requiresPhoto: o.requiresPhoto ?? false,
    })),
  );
}

/** POST /api/response-types and the admin CLI's create-response-type. 409 when the name is taken; 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createResponseType(
  db: Db | Tx,
  organizationId: string,
  actor: DirectoryActor,
  input: CreateResponseTypeBody,
  max?: number,
): Promise<ResponseTypeView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.name,
    insert: async (tx) => {
      const [row] = await tx
        .insert(responseTypes)
        .values({ organizationId, name: input.name, inputType: input.inputType, uiLabel: input.uiLabel ?? input.name })
        .returning();
      await writeOptions(tx, organizationId, row!.id, input.options ?? []);
      return row!;
    },
  });
}

/** PATCH /api/response-types/{id}: rename, relabel, replace the options, archive or restore. 404, 412, 400, 409. */
export async function patchResponseType(
  db: Db,
  organizationId: string,
  id: string,
  expected: number[] | null,
  input: PatchResponseTypeBody,
  actor: DirectoryActor,
): Promise<ResponseTypeView> {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: noun.spec.unique.taken(input.name ?? ""),
    archived: input.archived,
    plan: async (tx, row) => {
      const plan = await noun.planUnique(tx, organizationId, row, "name", input.name);
      if (input.uiLabel !== undefined && input.uiLabel !== row.uiLabel) {
        plan.fields.push("uiLabel");
        plan.set.uiLabel = input.uiLabel;
      }
      if (input.options !== undefined) {
        if (input.options.length && !CHOICE_TYPES.includes(row.inputType))
          throw badRequest("Invalid response type", [`options: only SELECT and MULTI_SELECT have options (this one is ${row.inputType})`]);
        await writeOptions(tx, organizationId, id, input.options);
        plan.fields.push("options");
      }
      return plan;
    },
  });
}

/** DELETE /api/response-types/{id}: only one no template uses (409 naming how many do: archive it instead). */
export async function deleteResponseType(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
    return blockedBy((await templatesUsing(tx, organizationId, [id])).get(id) ?? 0, "template uses it", "templates use it");
  });
}
