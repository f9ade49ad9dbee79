import SCIMMY from "scimmy";
import { parsePatchPath, quote, type FilterNode } from "./filter-parse.ts";
import { ENTERPRISE, GROUP_SCHEMA, PATCH_OP, ScimError, USER_NOT_KEPT, USER_SCHEMA, dropNulls, managerValue, scim, toBool } from "./protocol.ts";

/**
 * SCIM PATCH bodies (RFC 7644 section 3.5.2) made what scimmy applies as the RFC says. Each
 * rewrite below serves one form an identity provider sends (Microsoft Entra ID, Okta) or one
 * place where scimmy departs from the RFC; normalizePatch reads the PatchOp message and runs
 * PATCH_REWRITES over its operations in order. A rewrite passes on unchanged every operation it
 * does not recognise, and sees what the rewrites before it made (the manager's path is qualified
 * before its value is reshaped; paths are checked before any rewrite parses them).
 */

/** One PATCH operation: `op` as the client wrote it until opNamesInLowerCase, then "add", "remove" or "replace". */
export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

/** What the PATCH applies to: the resource as it is before the operations, and its type. */
export interface PatchTarget {
  current: Record<string, unknown>;
  resource: "User" | "Group";
}

/** One rewrite: the operations it is given, in order, as scimmy should get them. */
export type PatchRewrite = (ops: PatchOperation[], target: PatchTarget) => PatchOperation[];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
/** The operation with another value, or with none (no `value` member) when it is undefined. */
const withValue = (o: PatchOperation, value: unknown): PatchOperation => ({ op: o.op, path: o.path, ...(value !== undefined ? { value } : {}) });

/** Entra ID capitalises op names ("Replace", "Add", "Remove"); RFC 7644 section 3.5.2 writes them in lower case. */
export function opNamesInLowerCase(ops: PatchOperation[]): PatchOperation[] {
  return ops.map((o) => ({ ...o, op: o.op.toLowerCase() }));
}

/**
 * Entra ID sends nulls for what it has no value of (`"$ref": null` beside a member's value,
 * `"addresses": null`); RFC 7643 section 2.5 treats a null as the attribute being absent, so
 * nulls are dropped at every depth of a value.
 */
export function nullsDropped(ops: PatchOperation[]): PatchOperation[] {
  return ops.map((o) => ("value" in o ? { ...o, value: dropNulls(o.value) } : o));
}

/**
 * A path-less add or replace, which Okta sends to deactivate and reactivate (`{active: false}`,
 * with the resource's own `id`) and Entra ID with dotted and URN-qualified keys
 * (`{"name.givenName": "Kkom", "<enterprise URN>:department": "Warehouse"}`), becomes one
 * operation per attribute of its value, an extension object (`{"<enterprise URN>": {...}}`)
 * one per attribute inside it: scimmy appends to a multi-valued attribute on a
 * path-less replace, where RFC 7644 section 3.5.2.3 replaces it. `schemas` and `meta` are
 * dropped, and so is `id` (normalizePatch has refused one other than the resource's own).
 */
export function pathlessValueSplit(ops: PatchOperation[], { resource }: PatchTarget): PatchOperation[] {
  const urns = resource === "User" ? [USER_SCHEMA, ENTERPRISE] : [GROUP_SCHEMA];
  return ops.flatMap((o) => {
    if (o.path !== undefined || o.op === "remove" || !isObject(o.value)) return [o];
    const out: PatchOperation[] = [];
    for (const [key, v] of Object.entries(o.value)) {
      const k = key.toLowerCase();
      if (k === "schemas" || k === "meta" || k === "id") continue;
      const urn = urns.find((u) => u.toLowerCase() === k);
      if (urn && isObject(v)) {
        for (const [sub, sv] of Object.entries(v)) out.push({ op: o.op, path: `${urn}:${sub}`, value: sv });
      } else out.push({ op: o.op, path: key, value: v });
    }
    return out;
  });
}

/** Entra ID writes the enterprise extension's manager at path `manager` (its tutorial's Example 5); it is `<enterprise URN>:manager`. */
export function managerPathQualified(ops: PatchOperation[]): PatchOperation[] {
  return ops.map((o) => (o.path !== undefined && /^manager$/i.test(o.path) ? { ...o, path: `${ENTERPRISE}:manager` } : o));
}

/** A User attribute the service does not keep (USER_NOT_KEPT), by its name and sub-attribute. */
function notKept(name: string, sub?: string): boolean {
  const n = name.toLowerCase();
  return USER_NOT_KEPT.some((k) => {
    const [a, b] = k.toLowerCase().split(".");
    return a === n && (b === undefined || b === sub?.toLowerCase());
  });
}

type Attribute = InstanceType<typeof SCIMMY.Types.Attribute>;

/** The schema's definition of an attribute path (`name`, `name.sub`, either URN-qualified), or undefined for one it does not declare. */
function definitionOf(resource: "User" | "Group", path: string): Attribute | undefined {
  const schema = resource === "User" ? scim().Schemas.User : scim().Schemas.Group;
  try {
    const found = schema.definition.attribute(path);
    return found instanceof SCIMMY.Types.Attribute ? found : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A PATCH operation's path checked before scimmy applies it: its syntax (RFC 7644 section
 * 3.5.2; scimmy takes `emails[type eq work]`), and the target's mutability: a read-only
 * attribute (groups, meta, a member's display) or an immutable one (a member's value) is a 400
 * mutability ("a client MUST NOT modify an attribute that has mutability readOnly or
 * immutable"). False for a User attribute the service does not keep.
 */
function pathAccepted(path: string, op: string, resource: "User" | "Group"): boolean {
  const { path: p, sub } = parsePatchPath(path);
  const core = p.uri === undefined || p.uri.toLowerCase() === (resource === "User" ? USER_SCHEMA : GROUP_SCHEMA).toLowerCase();
  if (resource === "User" && core && notKept(p.name, p.sub ?? sub)) return false;
  const attr = `${p.uri !== undefined ? `${p.uri}:` : ""}${p.name}`;
  const subName = p.sub ?? sub;
  for (const name of [attr, ...(subName !== undefined ? [`${attr}.${subName}`] : [])]) {
    const def = definitionOf(resource, name);
    if (!def) return true; // not declared: scimmy answers invalidPath
    if (def.config.mutable === false)
      throw new ScimError(
        400,
        "mutability",
        `${quote(name)} is read-only: a PATCH cannot ${op} it${name.toLowerCase() === "groups" ? " (a User's groups change through /Groups)" : ""}`,
      );
    if (def.config.mutable === "immutable")
      throw new ScimError(400, "mutability", `${quote(name)} is immutable: a PATCH cannot ${op} it (add or remove the whole value instead)`);
  }
  return true;
}

/**
 * Every path checked (pathAccepted: a malformed one is a 400, so is a read-only or immutable
 * target), and an operation on a User attribute the service does not keep dropped: identity
 * providers' default mappings send some (Entra ID: `addresses[type eq "work"].streetAddress`),
 * and a 400 would stop the user's provisioning (docs/scim.md).
 */
export function pathsCheckedUnkeptSkipped(ops: PatchOperation[], { resource }: PatchTarget): PatchOperation[] {
  return ops.filter((o) => !o.path || pathAccepted(o.path, o.op, resource));
}

/**
 * The manager as identity providers send it to add or replace, an id, `{value}` or
 * `[{value, $ref}]` (Entra ID's tutorial, Example 5), as RFC 7643 section 4.3's
 * `{value}`; a form without an id leaves no value.
 */
export function managerAsValue(ops: PatchOperation[]): PatchOperation[] {
  const manager = `${ENTERPRISE}:manager`.toLowerCase();
  return ops.map((o) => (o.path?.toLowerCase() === manager && o.op !== "remove" ? withValue(o, managerValue(o.value)) : o));
}

const BOOLEAN_PATHS = new Set(["active", "emails.primary", "phonenumbers.primary", "addresses.primary"]);

/** Entra ID's default tenants send booleans as strings ("True", "False"; to disable a user); RFC 7643 section 2.3.2 has true and false. */
export function booleansFromStrings(ops: PatchOperation[]): PatchOperation[] {
  return ops.map((o) => (o.path !== undefined && BOOLEAN_PATHS.has(o.path.toLowerCase()) ? withValue(o, toBool(o.value)) : o));
}

/**
 * Entra ID removes group members by listing them in the value of a remove at path `members`;
 * a remove of `members` without a filter removes every member (RFC 7644 section 3.5.2.2), so
 * each listed member becomes a remove of `members[value eq "<id>"]` (one without a string id
 * is dropped).
 */
export function membersRemovedByValue(ops: PatchOperation[]): PatchOperation[] {
  return ops.flatMap((o) => {
    if (o.op !== "remove" || o.path?.toLowerCase() !== "members" || !Array.isArray(o.value)) return [o];
    return (o.value as { value?: unknown }[]).flatMap((m) =>
      typeof m?.value === "string" ? [{ op: "remove", path: `members[value eq ${JSON.stringify(m.value)}]` }] : [],
    );
  });
}

/** A sub-attribute of the entry of one type (`emails[type eq "work"].value`), the form typedEntryAdded handles. */
const TYPED_PATH = /^(emails|phoneNumbers|addresses)\[type eq "([^"]+)"\]\.(\w+)$/i;

/**
 * Entra ID adds or replaces `emails[type eq "work"].value` whether or not the user has a work
 * e-mail yet (phone numbers and addresses of a type alike). Without an entry of the type,
 * scimmy finds no target: the operation becomes an add of the entry (an e-mail primary when it
 * is the first). With one, it is a replace of it.
 */
export function typedEntryAdded(ops: PatchOperation[], { current }: PatchTarget): PatchOperation[] {
  return ops.map((o) => {
    const typed = o.path?.match(TYPED_PATH);
    if (!typed || o.op === "remove") return o;
    const [, attr, type, sub] = typed;
    const key = Object.keys(current).find((k) => k.toLowerCase() === attr!.toLowerCase()) ?? attr!;
    const list = (current[key] as { type?: string }[] | undefined) ?? [];
    if (list.some((x) => String(x.type).toLowerCase() === type!.toLowerCase())) return { op: "replace", path: o.path, value: o.value };
    return { op: "add", path: attr!, value: [{ type, [sub!]: o.value, ...(attr!.toLowerCase() === "emails" ? { primary: list.length === 0 } : {}) }] };
  });
}

/** A value filter that is equality tests joined by "and" (`type eq "work" and primary eq true`), as lower-case names and values; undefined for any other. */
function testsOf(filter: FilterNode): { name: string; value: unknown }[] | undefined {
  if (filter.kind === "and") {
    const parts = filter.filters.map(testsOf);
    return parts.every((p) => p !== undefined) ? (parts.flat() as { name: string; value: unknown }[]) : undefined;
  }
  if (filter.kind !== "test" || filter.path.sub !== undefined || filter.path.uri !== undefined || filter.test.op !== "eq") return undefined;
  const v = filter.test.value;
  return v.kind === "string" || v.kind === "boolean" ? [{ name: filter.path.name.toLowerCase(), value: v.value }] : undefined;
}
const subOf = (e: Record<string, unknown>, name: string) => Object.entries(e).find(([k]) => k.toLowerCase() === name)?.[1];
/** Equality as a filter compares (strings without case: the sub-attributes of emails, phoneNumbers and members are not caseExact). */
const same = (a: unknown, b: unknown) => (typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b);

/**
 * A replace of the sub-attribute its value filter tests (`emails[value eq "a"].value`): scimmy
 * changes the value, then finds the filter matching nothing and answers noTarget. The matching values are removed and added
 * back changed instead (RFC 7644 section 3.5.2.3: they are replaced). typedEntryAdded's form
 * (`emails[type eq "work"].type`) is left as that rewrite made it.
 */
export function filteredSubAttributeReplaced(ops: PatchOperation[], { current }: PatchTarget): PatchOperation[] {
  return ops.flatMap((o) => {
    if (o.op !== "replace" || !o.path || TYPED_PATH.test(o.path)) return [o];
    const path = o.path;
    const parsed = parsePatchPath(path);
    const subName = parsed.path.sub ?? parsed.sub;
    const tests = parsed.filter && testsOf(parsed.filter);
    if (subName === undefined || !tests?.some((t) => t.name === subName.toLowerCase())) return [o];
    const key = Object.keys(current).find((k) => k.toLowerCase() === parsed.path.name.toLowerCase());
    const matching =
      ((key ? current[key] : undefined) as Record<string, unknown>[] | undefined)?.filter((e) => tests.every((t) => same(subOf(e, t.name), t.value))) ?? [];
    if (!matching.length) return [o];
    const filterText = path.slice(path.indexOf("["), path.lastIndexOf("]") + 1);
    return [
      { op: "remove", path: `${parsed.path.name}${filterText}` },
      {
        op: "add",
        path: parsed.path.name,
        value: matching.map((e) => ({
          ...Object.fromEntries(Object.entries(e).filter(([k]) => k.toLowerCase() !== subName.toLowerCase())),
          [subName]: o.value,
        })),
      },
    ];
  });
}

/**
 * A complex single-valued attribute (`name`, the manager) as RFC 7644 says, where scimmy does
 * not, for any provider: an add or replace of it with an object changes the sub-attributes
 * given and keeps the others (section 3.5.2.3; scimmy's replace drops them), and one of a
 * sub-attribute of it while it has no value adds it (section 3.5.2.1; scimmy answers
 * noTarget). Whether it has a value follows the operations before (a remove clears it).
 */
export function complexAttributeMerged(ops: PatchOperation[], { current, resource }: PatchTarget): PatchOperation[] {
  const has = new Map<string, boolean>();
  const present = (attr: string) => {
    const key = attr.toLowerCase();
    if (has.has(key)) return has.get(key)!;
    const [container, name] = key.startsWith(`${ENTERPRISE.toLowerCase()}:`)
      ? [current[ENTERPRISE] as Record<string, unknown> | undefined, key.slice(ENTERPRISE.length + 1)]
      : [current, key];
    const found = Object.entries(container ?? {}).find(([n]) => n.toLowerCase() === name)?.[1];
    return found !== undefined && found !== null;
  };
  return ops.flatMap((o): PatchOperation[] => {
    if (!o.path) return [o];
    const { op, value } = o;
    const parsed = parsePatchPath(o.path);
    const attr = `${parsed.path.uri !== undefined ? `${parsed.path.uri}:` : ""}${parsed.path.name}`;
    const def = parsed.filter === undefined ? definitionOf(resource, attr) : undefined;
    if (!def || String(def.type) !== "complex" || def.config.multiValued) return [o];
    if (op === "remove") {
      if (parsed.path.sub === undefined) has.set(attr.toLowerCase(), false);
    } else if (parsed.path.sub !== undefined) {
      if (!present(attr)) {
        has.set(attr.toLowerCase(), true);
        return [{ op: "add", path: attr, value: { [parsed.path.sub]: value } }];
      }
    } else if (isObject(value)) {
      if (present(attr)) return Object.entries(value).map(([sub, sv]) => ({ op, path: `${attr}.${sub}`, value: sv }));
      has.set(attr.toLowerCase(), true);
    }
    return [o];
  });
}

/** The rewrites, in the order normalizePatch runs them; each relies on those before it (paths qualified and checked, values without nulls). */
export const PATCH_REWRITES: readonly PatchRewrite[] = [
  opNamesInLowerCase,
  nullsDropped,
  pathlessValueSplit,
  managerPathQualified,
  pathsCheckedUnkeptSkipped,
  managerAsValue,
  booleansFromStrings,
  membersRemovedByValue,
  typedEntryAdded,
  filteredSubAttributeReplaced,
  complexAttributeMerged,
];

/**
 * The operations of a PatchOp message (RFC 7644 section 3.5.2), each with an op that is add,
 * remove or replace in any case; a path trimmed, a blank one none. A path-less add or replace
 * may carry the resource's own `id` (Okta sends it), no other: 400 mutability. Checked
 * operation by operation, so the first malformed one is the one named.
 */
function operationsOf(body: unknown, { current }: PatchTarget): PatchOperation[] {
  if (!body || typeof body !== "object") throw new ScimError(400, "invalidSyntax", "The request body must be a PatchOp message");
  const b = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(b.schemas) || !b.schemas.includes(PATCH_OP)) throw new ScimError(400, "invalidSyntax", `PATCH bodies must name the schema ${PATCH_OP}`);
  if (!Array.isArray(b.Operations) || b.Operations.length === 0)
    throw new ScimError(400, "invalidValue", "PATCH bodies must carry at least one operation in Operations");
  return (b.Operations as unknown[]).map((raw) => {
    if (!raw || typeof raw !== "object" || typeof (raw as { op?: unknown }).op !== "string")
      throw new ScimError(400, "invalidSyntax", "Each operation needs an op");
    const { op, path: rawPath, value } = raw as { op: string; path?: unknown; value?: unknown };
    const lower = op.toLowerCase();
    if (lower !== "add" && lower !== "remove" && lower !== "replace") throw new ScimError(400, "invalidSyntax", `Unknown operation '${op}'`);
    const path = typeof rawPath === "string" && rawPath.trim() ? rawPath.trim() : undefined;
    if (path === undefined && lower !== "remove" && isObject(value)) {
      for (const [k, v] of Object.entries(value))
        if (k.toLowerCase() === "id" && v !== null && v !== current.id) throw new ScimError(400, "mutability", "id is read-only: a PATCH cannot change it");
    }
    return { op, ...(path !== undefined ? { path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}

/**
 * A PATCH body as scimmy should apply it: the message checked (operationsOf), then every
 * rewrite of PATCH_REWRITES in order. An empty list of operations is a PATCH of attributes the
 * service does not keep only: nothing changes.
 */
export function normalizePatch(
  body: unknown,
  current: Record<string, unknown>,
  resource: "User" | "Group",
): { schemas: [typeof PATCH_OP]; Operations: PatchOperation[] } {
  const target: PatchTarget = { current, resource };
  return { schemas: [PATCH_OP], Operations: PATCH_REWRITES.reduce((ops, rewrite) => rewrite(ops, target), operationsOf(body, target)) };
}
