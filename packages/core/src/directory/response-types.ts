import { and, asc, countDistinct, count, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { CreateResponseTypeBody, PatchResponseTypeBody, ResponseTypeListQuery, ResponseTypeView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { responseTypeOptions, responseTypes, templateQuestions } from "@insp/db/schema";
import { AppError, badRequest, isUuid, notFound } from "../errors.ts";
import { archiveSet, assertRevision, commonFilters, page, recordDirectoryChange, uniqueOr409, type DirectoryActor } from "./common.ts";

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

const rtNotFound = (id: string) => notFound(`Response type ${id} not found`);
const nameTaken = (name: string) => `A response type named '${name}' already exists in this organization (archived ones keep their name)`;

/** Templates (any version) with a question of each type. */
async function templatesUsing(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: templateQuestions.responseTypeId, n: countDistinct(templateQuestions.templateId) })
    .from(templateQuestions)
    .where(and(eq(templateQuestions.organizationId, organizationId), inArray(templateQuestions.responseTypeId, ids)))
    .groupBy(templateQuestions.responseTypeId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
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

/** The organization's response types among `ids` (feeds' and webhooks' loader). */
export async function responseTypesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<ResponseTypeView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return views(
    db,
    organizationId,
    await db
      .select()
      .from(responseTypes)
      .where(and(eq(responseTypes.organizationId, organizationId), inArray(responseTypes.id, valid))),
  );
}

export async function getResponseType(db: DbOrTx, organizationId: string, id: string): Promise<ResponseTypeView> {
  const [view] = await responseTypesByIds(db, organizationId, [id]);
  if (!view) throw rtNotFound(id);
  return view;
}

export async function listResponseTypes(db: DbOrTx, organizationId: string, q: ResponseTypeListQuery) {
  const conds: SQL[] = [eq(responseTypes.organizationId, organizationId), ...commonFilters(responseTypes, q)];
  const where = and(...conds);
  const rows = await db.select().from(responseTypes).where(where).orderBy(asc(responseTypes.name), asc(responseTypes.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(responseTypes).where(where)) as [{ n: number }];
  const p = page(await views(db, organizationId, rows), Number(n), q);
  return { responseTypes: p.items, pagination: p.pagination };
}

async function assertNameFree(tx: Tx, organizationId: string, name: string, except?: string): Promise<void> {
  const conds = [eq(responseTypes.organizationId, organizationId), eq(responseTypes.name, name)];
  if (except) conds.push(ne(responseTypes.id, except));
  const [taken] = await tx
    .select({ id: responseTypes.id })
    .from(responseTypes)
    .where(and(...conds));
  if (taken) throw new AppError("conflict", nameTaken(name));
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

/** POST /api/response-types and the admin CLI's create-response-type. 409 when the name is taken. */
export async function createResponseType(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateResponseTypeBody): Promise<ResponseTypeView> {
  const id = await uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        await assertNameFree(tx, organizationId, input.name);
        const [row] = await tx
          .insert(responseTypes)
          .values({ organizationId, name: input.name, inputType: input.inputType, uiLabel: input.uiLabel ?? input.name })
          .returning();
        await writeOptions(tx, organizationId, row!.id, input.options ?? []);
        await recordDirectoryChange(tx, actor, { organizationId, kind: "response_type", id: row!.id, change: "created" });
        return row!.id;
      }),
    nameTaken(input.name),
  );
  return getResponseType(db, organizationId, id);
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
  if (!isUuid(id)) throw rtNotFound(id);
  await uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(responseTypes)
          .where(and(eq(responseTypes.organizationId, organizationId), eq(responseTypes.id, id)))
          .for("update");
        if (!row) throw rtNotFound(id);
        assertRevision("response_type", row.revision, expected);
        const fields: string[] = [];
        const set: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== row.name) {
          await assertNameFree(tx, organizationId, input.name, id);
          fields.push("name");
          set.name = input.name;
        }
        if (input.uiLabel !== undefined && input.uiLabel !== row.uiLabel) {
          fields.push("uiLabel");
          set.uiLabel = input.uiLabel;
        }
        if (input.options !== undefined) {
          if (input.options.length && !CHOICE_TYPES.includes(row.inputType))
            throw badRequest("Invalid response type", [`options: only SELECT and MULTI_SELECT have options (this one is ${row.inputType})`]);
          await writeOptions(tx, organizationId, id, input.options);
          fields.push("options");
        }
        const archive = archiveSet(row.archivedAt, input.archived);
        if (archive) {
          fields.push("archived");
          Object.assign(set, archive);
        }
        if (!fields.length) return;
        await tx
          .update(responseTypes)
          .set({ ...set, revision: row.revision + 1 })
          .where(eq(responseTypes.id, id));
        const change = archive && input.archived ? "archived" : "updated";
        await recordDirectoryChange(tx, actor, { organizationId, kind: "response_type", id, change, fields });
      }),
    nameTaken(input.name ?? ""),
  );
  return getResponseType(db, organizationId, id);
}

/** DELETE /api/response-types/{id}: only one no template uses (409 naming how many do: archive it instead). */
export async function deleteResponseType(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  if (!isUuid(id)) throw rtNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: responseTypes.name })
      .from(responseTypes)
      .where(and(eq(responseTypes.organizationId, organizationId), eq(responseTypes.id, id)))
      .for("update");
    if (!row) throw rtNotFound(id);
    const used = (await templatesUsing(tx, organizationId, [id])).get(id) ?? 0;
    if (used > 0) {
      const who = `${used} ${used === 1 ? "template uses" : "templates use"} it`;
      throw new AppError(
        "conflict",
        `Response type '${row.name}' cannot be deleted: ${who}. Archive it instead (PATCH /api/response-types/${id} with {"archived": true})`,
        [who],
      );
    }
    await tx.delete(responseTypes).where(and(eq(responseTypes.organizationId, organizationId), eq(responseTypes.id, id)));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "response_type", id, change: "deleted" });
  });
}
