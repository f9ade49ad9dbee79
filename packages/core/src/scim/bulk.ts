import { isConnectionError } from "@insp/db";
import { createScimGroup, deleteScimGroup, patchScimGroup, replaceScimGroup } from "./group-writes.ts";
import { BULK_MAX_OPERATIONS, BULK_REQUEST, ScimError, asScimError, errorBody } from "./protocol.ts";
import { createScimUser, deleteScimUser, patchScimUser, replaceScimUser } from "./user-writes.ts";
import type { ScimContext } from "./users.ts";

/**
 * POST /Bulk (RFC 7644 section 3.7): each operation runs through the same functions as its own
 * request (one transaction each: a failed operation changes nothing, the others stand).
 * `bulkId:<id>` in an operation's path or data names the resource another operation of the
 * request creates: operations run in request order, except that one waits for those it refers
 * to (a reference that cannot be resolved, or a cycle, fails that operation with 409).
 * `failOnErrors` stops after that many failures. An operation that fails for a reason of the
 * service's own (a lost connection, a deadlock that would not go away) answers its own error,
 * 503 or 500 (RFC 7644 section 3.7.3), counts as a failure, and the others go on; the cause goes
 * to `onError` (the caller's log), never request content.
 */

interface BulkOperation {
  method: string;
  path: string;
  bulkId?: string;
  version?: string;
  data?: unknown;
}

export interface BulkResult {
  method: string;
  bulkId?: string;
  location?: string;
  version?: string;
  status: string;
  response?: unknown;
}

const BULK_REF = /bulkId:([^"\s/]+)/g;

const refsOf = (op: BulkOperation) => [...`${op.path} ${JSON.stringify(op.data ?? null)}`.matchAll(BULK_REF)].map((m) => m[1]!);

const isScalar = (v: unknown): v is string | number | boolean | null => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

function parse(body: unknown): { operations: BulkOperation[]; failOnErrors: number } {
  const b = body as { schemas?: unknown; Operations?: unknown; failOnErrors?: unknown } | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.schemas) || !b.schemas.includes(BULK_REQUEST))
    throw new ScimError(400, "invalidSyntax", `Bulk requests must name the schema ${BULK_REQUEST}`);
  if (!Array.isArray(b.Operations) || b.Operations.length === 0) throw new ScimError(400, "invalidValue", "Operations must list at least one operation");
  if (b.Operations.length > BULK_MAX_OPERATIONS)
    throw new ScimError(413, undefined, `The bulk request has ${b.Operations.length} operations, more than maxOperations (${BULK_MAX_OPERATIONS})`);
  // Number() and String() only of a scalar: of an object whose toString is not callable they throw.
  const failOnErrors = b.failOnErrors === undefined ? Infinity : isScalar(b.failOnErrors) ? Number(b.failOnErrors) : NaN;
  if (!Number.isInteger(failOnErrors) && failOnErrors !== Infinity) throw new ScimError(400, "invalidValue", "failOnErrors must be a whole number");
  const operations = b.Operations.map((raw, i) => {
    const o = raw as { method?: unknown; path?: unknown; bulkId?: unknown; version?: unknown; data?: unknown } | null;
    if (!o || typeof o.method !== "string" || typeof o.path !== "string")
      throw new ScimError(400, "invalidSyntax", `Operations[${i}] needs a method and a path`);
    if (o.method.toUpperCase() === "POST" && !o.bulkId) throw new ScimError(400, "invalidSyntax", `Operations[${i}]: a POST needs a bulkId`);
    if (o.bulkId && !isScalar(o.bulkId)) throw new ScimError(400, "invalidValue", `Operations[${i}]: bulkId must be a string`);
    if (o.version && !isScalar(o.version)) throw new ScimError(400, "invalidValue", `Operations[${i}]: version must be a string (an ETag)`);
    return {
      method: o.method.toUpperCase(),
      path: o.path,
      ...(o.bulkId ? { bulkId: String(o.bulkId) } : {}),
      ...(o.version ? { version: String(o.version) } : {}),
      data: o.data,
    };
  });
  return { operations, failOnErrors: failOnErrors === 0 ? Infinity : failOnErrors };
}

/** Replaces every `bulkId:<id>` with the id its operation created. */
function resolve<T>(v: T, ids: Map<string, string>): T {
  return JSON.parse(JSON.stringify(v ?? null).replace(BULK_REF, (all, id: string) => ids.get(id) ?? all)) as T;
}

async function run(ctx: ScimContext, op: BulkOperation): Promise<{ status: number; resource?: Record<string, unknown> }> {
  const m = /^\/(Users|Groups)(?:\/([^/?]+))?$/.exec(op.path);
  if (!m) throw new ScimError(400, "invalidPath", `Unknown path ${op.path}`);
  const [, type, id] = m;
  const users = type === "Users";
  if (op.method === "POST" && !id) return { status: 201, resource: users ? await createScimUser(ctx, op.data) : await createScimGroup(ctx, op.data) };
  if (!id) throw new ScimError(400, "invalidPath", `${op.method} needs a resource path such as /${type}/{id}`);
  if (op.method === "PUT")
    return { status: 200, resource: users ? await replaceScimUser(ctx, id, op.data, op.version) : await replaceScimGroup(ctx, id, op.data, op.version) };
  if (op.method === "PATCH")
    return { status: 200, resource: users ? await patchScimUser(ctx, id, op.data, op.version) : await patchScimGroup(ctx, id, op.data, op.version) };
  if (op.method === "DELETE") {
    await (users ? deleteScimUser(ctx, id, op.version) : deleteScimGroup(ctx, id, op.version));
    return { status: 204 };
  }
  throw new ScimError(400, "invalidSyntax", `Unknown method ${op.method}`);
}

/** A failure of the service's own as the operation's SCIM error. */
function internal(ctx: ScimContext, err: unknown): ScimError {
  if (isConnectionError(err)) return new ScimError(503, undefined, "Service temporarily unavailable; retry this operation");
  return new ScimError(500, undefined, `Internal server error in this operation (request id ${String(ctx.requestId)})`);
}

export async function runBulk(
  ctx: ScimContext,
  body: unknown,
  onError: (err: unknown) => void = () => {},
): Promise<{ schemas: string[]; Operations: BulkResult[] }> {
  const { operations, failOnErrors } = parse(body);
  const ids = new Map<string, string>();
  const creators = new Map(operations.filter((o) => o.bulkId).map((o) => [o.bulkId!, o]));
  const results = new Map<BulkOperation, BulkResult>();
  const failed = new Set<string>();
  let errors = 0;
  const fail = (op: BulkOperation, err: ScimError) => {
    errors++;
    if (op.bulkId) failed.add(op.bulkId);
    results.set(op, {
      method: op.method,
      ...(op.bulkId ? { bulkId: op.bulkId } : {}),
      status: String(err.status),
      response: errorBody(err.status, err.message, err.scimType),
    });
  };
  // Request order, each operation after the ones it refers to (resolved as they complete): a
  // topological order that always takes the earliest ready operation. Each operation's
  // references are found once, so a request of chained operations costs what its size does.
  const refs = new Map(operations.map((op) => [op, [...new Set(refsOf(op))]]));
  const index = new Map(operations.map((op, i) => [op, i]));
  const waitsOn = new Map<BulkOperation, number>();
  const dependents = new Map<BulkOperation, BulkOperation[]>();
  for (const op of operations) {
    const on = new Set(refs.get(op)!.flatMap((r) => (creators.has(r) ? [creators.get(r)!] : [])));
    waitsOn.set(op, on.size);
    for (const creator of on) dependents.set(creator, [...(dependents.get(creator) ?? []), op]);
  }
  const ready = operations.filter((op) => waitsOn.get(op) === 0);
  const pending = new Set(operations);
  const done = (op: BulkOperation) => {
    pending.delete(op);
    for (const d of dependents.get(op) ?? []) {
      const left = waitsOn.get(d)! - 1;
      waitsOn.set(d, left);
      if (left === 0) {
        const at = ready.findIndex((r) => index.get(r)! > index.get(d)!);
        ready.splice(at === -1 ? ready.length : at, 0, d);
      }
    }
  };
  while (pending.size && errors < failOnErrors) {
    const next = ready.shift();
    if (!next) {
      for (const op of pending) fail(op, new ScimError(409, undefined, "This operation refers by bulkId to operations that refer back to it (a cycle)"));
      break;
    }
    await runOne(next); // never throws: a failure is the operation's result
    done(next); // its dependents now see it created or failed
  }
  return {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkResponse"],
    Operations: operations.filter((op) => results.has(op)).map((op) => results.get(op)!),
  };

  async function runOne(ready: BulkOperation): Promise<void> {
    const unresolved = refs.get(ready)!.filter((r) => !ids.has(r));
    if (unresolved.length) {
      fail(
        ready,
        new ScimError(
          409,
          undefined,
          `bulkId ${unresolved.map((r) => `'${r}'`).join(", ")} ${unresolved.some((r) => failed.has(r)) ? "failed" : "is not defined in this request"}`,
        ),
      );
      return;
    }
    try {
      const { status, resource } = await run(ctx, { ...ready, path: resolve(ready.path, ids), data: resolve(ready.data, ids) });
      const meta = resource?.meta as { location?: string; version?: string } | undefined;
      if (ready.bulkId && resource?.id) ids.set(ready.bulkId, String(resource.id));
      const location = meta?.location ?? `${ctx.baseUrl}${resolve(ready.path, ids)}`;
      results.set(ready, {
        method: ready.method,
        ...(ready.bulkId ? { bulkId: ready.bulkId } : {}),
        location,
        ...(meta?.version ? { version: meta.version } : {}),
        status: String(status),
      });
    } catch (err) {
      const e = asScimError(err);
      if (!e) onError(err);
      fail(ready, e ?? internal(ctx, err));
    }
  }
}
