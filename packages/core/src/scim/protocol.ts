import { createHash } from "node:crypto";
import SCIMMY from "scimmy";
import { etagListMatches } from "../etag.ts";
import { ScimError, asScimError, type ScimType } from "./errors.ts";
import { parsePatchPath, quote, type FilterNode } from "./filter-parse.ts";

export { ScimError, asScimError, type ScimType };

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) with the scimmy library: its schemas (trimmed to what the
 * service keeps: describeService) validate and coerce resources, its PatchOp applies PATCH
 * operations (made RFC-shaped first: normalizePatch), its messages shape list, error and bulk
 * answers, and its resources describe the service (ServiceProviderConfig, ResourceTypes,
 * Schemas). Filters and PATCH paths are parsed by filter-parse.ts, not by scimmy's Filter
 * (which accepts malformed filters: see there). scimmy's registry is global, so it is set up
 * once and holds nothing of any tenant.
 */

export const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const BULK_REQUEST = "urn:ietf:params:scim:api:messages:2.0:BulkRequest";

/** Filters return at most this many resources per page (ServiceProviderConfig filter.maxResults). */
export const MAX_RESULTS = 200;
export const BULK_MAX_OPERATIONS = 1000;
export const BULK_MAX_PAYLOAD = 1024 * 1024;

let configured = false;

/**
 * Attributes of RFC 7643's User schema (section 4.1) that the service does not keep: they are
 * not published in /Schemas, a POST or PUT that carries them is accepted without them, a PATCH
 * operation on them is skipped (identity providers' default mappings send some: a 400 would
 * stop the user's provisioning), no filter names them, and no answer has them. The decisions,
 * attribute by attribute: docs/scim.md.
 */
export const USER_NOT_KEPT = ["password", "ims", "photos", "addresses", "entitlements", "roles", "x509Certificates", "emails.display", "phoneNumbers.display"];

/**
 * The schemas as the service behaves (RFC 7643 section 7's characteristics): scimmy's copies
 * of RFC 7643's schemas without the attributes the service does not keep, and with the
 * characteristics it has here. Read-only sub-attributes are `direction: "out"` for scimmy,
 * which then drops them from what a client writes (RFC 7644 section 3.5.1: ignored).
 */
function describeService(S: typeof SCIMMY): void {
  S.Schemas.User.truncate(USER_NOT_KEPT);
  const readOnly = (attr: InstanceType<typeof SCIMMY.Types.Attribute>) => Object.assign(attr.config, { mutable: false, direction: "out" });
  // E-mails are unique in the organization (the employees' unique index on lower(email)).
  S.Schemas.User.definition.attribute("emails.value").config.uniqueness = "server";
  // The manager's URI is made from its id, whatever a client sends.
  readOnly(S.Schemas.EnterpriseUser.definition.attribute("manager.$ref"));
  // Group names are unique in the organization and compared exactly (the groups' unique index
  // on name; the employee sync finds groups by their exact name).
  Object.assign(S.Schemas.Group.definition.attribute("displayName").config, { caseExact: true, uniqueness: "server" });
  // Members are Users (no nested groups); their display name and URI come from the User.
  S.Schemas.Group.definition.attribute("members.type").config.canonicalValues = ["User"];
  readOnly(S.Schemas.Group.definition.attribute("members.display"));
  readOnly(S.Schemas.Group.definition.attribute("members.$ref"));
}

/** scimmy, declared and configured on first use. */
export function scim(): typeof SCIMMY {
  if (!configured) {
    describeService(SCIMMY);
    SCIMMY.Resources.declare(SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false));
    SCIMMY.Resources.declare(SCIMMY.Resources.Group);
    SCIMMY.Config.set({
      documentationUri: "https://github.com/inspection-service/inspection-service#scim-20-for-identity-providers",
      patch: { supported: true },
      bulk: { supported: true, maxOperations: BULK_MAX_OPERATIONS, maxPayloadSize: BULK_MAX_PAYLOAD },
      filter: { supported: true, maxResults: MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "OAuth Bearer Token",
          description: "An access token of an OAuth client with scope scim (POST /oauth/token, client credentials).",
          specUri: "https://www.rfc-editor.org/info/rfc6750",
          primary: true,
        },
      ],
    });
    configured = true;
  }
  return SCIMMY;
}

/** The RFC 7644 section 3.12 error body. */
export const errorBody = (status: number, detail: string, scimType?: ScimType) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/**
 * A weak ETag (meta.version) over what a resource shows, meta and URLs (`$ref`) excepted: any
 * change of the resource changes the tag, and the tag is the same whatever Host or protocol the
 * caller reached the service with.
 */
export function versionOf(resource: Record<string, unknown>): string {
  const { meta: _meta, ...rest } = resource;
  const shown = JSON.stringify(rest, (key, value: unknown) => (key === "$ref" ? undefined : value));
  return `W/"${createHash("sha256").update(shown).digest("hex").slice(0, 16)}"`;
}

/** If-Match (RFC 7644 section 3.14): `*` or any listed tag equal to the current version, weak or strong; else 412. */
export function checkIfMatch(ifMatch: string | undefined, version: string): void {
  if (ifMatch === undefined || etagListMatches(ifMatch, version)) return;
  throw new ScimError(412, undefined, "The resource has changed since the version given in If-Match");
}

const toBool = (v: unknown) => (typeof v === "string" && /^(true|false)$/i.test(v) ? v.toLowerCase() === "true" : v);
const BOOLEAN_PATHS = new Set(["active", "emails.primary", "phonenumbers.primary", "addresses.primary"]);

/** Drops nulls everywhere (Entra sends `"$ref": null`, `"addresses": null`): absent, as the RFC treats them. */
export function dropNulls<T>(v: T): T {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)])) as T;
  return v;
}

/** A manager in any of the forms identity providers send: an id, `{value}`, `[{value, $ref}]`. */
function managerValue(v: unknown): { value: string } | undefined {
  const x = Array.isArray(v) ? v[0] : v;
  if (typeof x === "string") return x ? { value: x } : undefined;
  if (x && typeof x === "object" && typeof (x as { value?: unknown }).value === "string") return { value: (x as { value: string }).value };
  return undefined;
}

/** A User or Group body as identity providers send it, made RFC-shaped: nulls dropped, "True"/"False" booleans, the manager's forms. */
export function normalizeResource(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "invalidSyntax", "The request body must be a JSON object");
  const r = dropNulls({ ...(body as Record<string, unknown>) });
  if ("active" in r) r.active = toBool(r.active);
  const ext = r[ENTERPRISE] as Record<string, unknown> | undefined;
  if (ext && typeof ext === "object" && "manager" in ext) {
    const m = managerValue(ext.manager);
    r[ENTERPRISE] = { ...ext, manager: m };
    if (!m) delete (r[ENTERPRISE] as Record<string, unknown>).manager;
  }
  return r;
}

interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
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
 * immutable"). Null for a User attribute the service does not keep: the operation is skipped.
 */
function checkPath(path: string, op: string, resource: "User" | "Group"): ReturnType<typeof parsePatchPath> | null {
  const parsed = parsePatchPath(path);
  const { path: p, sub } = parsed;
  const core = p.uri === undefined || p.uri.toLowerCase() === (resource === "User" ? USER_SCHEMA : GROUP_SCHEMA).toLowerCase();
  if (resource === "User" && core && notKept(p.name, p.sub ?? sub)) return null;
  const attr = `${p.uri !== undefined ? `${p.uri}:` : ""}${p.name}`;
  const subName = p.sub ?? sub;
  for (const name of [attr, ...(subName !== undefined ? [`${attr}.${subName}`] : [])]) {
    const def = definitionOf(resource, name);
    if (!def) return parsed; // not declared: scimmy answers invalidPath
    if (def.config.mutable === false) throw new ScimError(400, "mutability", `${quote(name)} is read-only: a PATCH cannot ${op} it${name.toLowerCase() === "groups" ? " (a User's groups change through /Groups)" : ""}`);
    if (def.config.mutable === "immutable") throw new ScimError(400, "mutability", `${quote(name)} is immutable: a PATCH cannot ${op} it (add or remove the whole value instead)`);
  }
  return parsed;
}

/** A value filter that is equality tests joined by "and" (`type eq "work" and primary eq true`), as lower-case names and values; undefined for any other. */
function testsOf(filter: FilterNode): { name: string; value: unknown }[] | undefined {
  if (filter.kind === "and") {
    const parts = filter.filters.map(testsOf);
    return parts.every((p) => p !== undefined) ? parts.flat() as { name: string; value: unknown }[] : undefined;
  }
  if (filter.kind !== "test" || filter.path.sub !== undefined || filter.path.uri !== undefined || filter.test.op !== "eq") return undefined;
  const v = filter.test.value;
  return v.kind === "string" || v.kind === "boolean" ? [{ name: filter.path.name.toLowerCase(), value: v.value }] : undefined;
}
const subOf = (e: Record<string, unknown>, name: string) => Object.entries(e).find(([k]) => k.toLowerCase() === name)?.[1];
/** Equality as a filter compares (strings without case: the sub-attributes of emails, phoneNumbers and members are not caseExact). */
const same = (a: unknown, b: unknown) => (typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b);

interface Operation {
  op: "add" | "remove" | "replace";
  path?: string;
  value?: unknown;
}

/**
 * A PATCH body made what scimmy applies as RFC 7644 section 3.5.2 says, for the forms Okta and
 * Microsoft Entra send and where scimmy itself departs from the RFC:
 *
 * - op names in any case ("Replace"), "True"/"False" for booleans, nulls, the manager by id or
 *   as `[{value, $ref}]` (also at path "manager"), members removed by listing them in `value`
 *   instead of a filtered path (a path-less remove of "members" would remove every member),
 *   and `emails[type eq "work"].value` added or replaced while the user has no work e-mail yet
 *   (it creates one);
 * - a path-less add or replace becomes one operation per attribute of its value (dotted keys
 *   and extension objects included): scimmy appends to a multi-valued attribute on a
 *   path-less replace, where section 3.5.2.3 replaces it; `id` may only repeat the resource's
 *   own (Okta sends it), `schemas` and `meta` are dropped;
 * - an add or replace of a complex single-valued attribute (name, manager) changes the
 *   sub-attributes given and leaves the others (section 3.5.2.3; scimmy's replace drops them),
 *   and one of a sub-attribute of such an attribute that has no value adds the attribute
 *   (section 3.5.2.1; scimmy answers noTarget);
 * - every path is checked first (checkPath): its syntax, read-only and immutable targets;
 *   operations on User attributes the service does not keep are skipped.
 */
export function normalizePatch(body: unknown, current: Record<string, unknown>, resource: "User" | "Group"): { schemas: [typeof PATCH_OP]; Operations: Operation[] } {
  if (!body || typeof body !== "object") throw new ScimError(400, "invalidSyntax", "The request body must be a PatchOp message");
  const b = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(b.schemas) || !b.schemas.includes(PATCH_OP)) throw new ScimError(400, "invalidSyntax", `PATCH bodies must name the schema ${PATCH_OP}`);
  if (!Array.isArray(b.Operations) || b.Operations.length === 0) throw new ScimError(400, "invalidValue", "PATCH bodies must carry at least one operation in Operations");
  const core = resource === "User" ? USER_SCHEMA : GROUP_SCHEMA;
  const steps: Operation[] = [];
  for (const raw of b.Operations as PatchOperation[]) {
    if (!raw || typeof raw !== "object" || typeof raw.op !== "string") throw new ScimError(400, "invalidSyntax", "Each operation needs an op");
    const op = raw.op.toLowerCase();
    if (op !== "add" && op !== "remove" && op !== "replace") throw new ScimError(400, "invalidSyntax", `Unknown operation '${raw.op}'`);
    const path = typeof raw.path === "string" && raw.path.trim() ? raw.path.trim() : undefined;
    const value = dropNulls(raw.value);
    if (path || op === "remove" || !value || typeof value !== "object" || Array.isArray(value)) {
      steps.push({ op, ...(path !== undefined ? { path } : {}), ...(value !== undefined ? { value } : {}) });
      continue;
    }
    // Path-less: one operation per attribute (section 3.5.2: the value holds the attributes to add or replace).
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const k = key.toLowerCase();
      if (k === "schemas" || k === "meta") continue;
      if (k === "id") {
        if (v !== current.id) throw new ScimError(400, "mutability", "id is read-only: a PATCH cannot change it");
        continue;
      }
      const urn = [core, ...(resource === "User" ? [ENTERPRISE] : [])].find((u) => u.toLowerCase() === k);
      if (urn && v && typeof v === "object" && !Array.isArray(v)) {
        for (const [sub, sv] of Object.entries(v as Record<string, unknown>)) steps.push({ op, path: `${urn}:${sub}`, value: sv });
      } else steps.push({ op, path: key, value: v });
    }
  }
  // Whether a complex attribute has a value, as the operations so far leave it.
  const has = new Map<string, boolean>();
  const present = (attr: string) => {
    const key = attr.toLowerCase();
    if (has.has(key)) return has.get(key)!;
    const [container, name] = key.startsWith(`${ENTERPRISE.toLowerCase()}:`) ? [current[ENTERPRISE] as Record<string, unknown> | undefined, key.slice(ENTERPRISE.length + 1)] : [current, key];
    const found = Object.entries(container ?? {}).find(([n]) => n.toLowerCase() === name)?.[1];
    return found !== undefined && found !== null;
  };
  const out: Operation[] = [];
  for (const step of steps) {
    const { op } = step;
    let { path, value } = step;
    if (path && /^manager$/i.test(path)) path = `${ENTERPRISE}:manager`;
    if (!path) {
      out.push(step);
      continue;
    }
    const parsed = checkPath(path, op, resource);
    if (!parsed) continue;
    if (path.toLowerCase() === `${ENTERPRISE}:manager`.toLowerCase() && op !== "remove") value = managerValue(value);
    if (BOOLEAN_PATHS.has(path.toLowerCase())) value = toBool(value);
    if (op === "remove" && path.toLowerCase() === "members" && Array.isArray(value)) {
      for (const m of value as { value?: unknown }[]) if (typeof m?.value === "string") out.push({ op: "remove", path: `members[value eq ${JSON.stringify(m.value)}]` });
      continue;
    }
    const typed = path.match(/^(emails|phoneNumbers|addresses)\[type eq "([^"]+)"\]\.(\w+)$/i);
    if (typed && op !== "remove") {
      const [, attr, type, sub] = typed;
      const key = Object.keys(current).find((k) => k.toLowerCase() === attr!.toLowerCase()) ?? attr!;
      const list = (current[key] as { type?: string }[] | undefined) ?? [];
      if (!list.some((x) => String(x.type).toLowerCase() === type!.toLowerCase())) {
        out.push({ op: "add", path: attr!, value: [{ type, [sub!]: value, ...(attr!.toLowerCase() === "emails" ? { primary: list.length === 0 } : {}) }] });
        continue;
      }
      out.push({ op: "replace", path, value });
      continue;
    }
    // A replace of a sub-attribute the value filter tests (`emails[value eq "a"].value`): scimmy
    // changes the value, then finds the filter matching nothing and answers noTarget. As the
    // matching values removed and added back changed (section 3.5.2.3: they are replaced).
    const subName = parsed.path.sub ?? parsed.sub;
    if (op === "replace" && parsed.filter && subName !== undefined && testsOf(parsed.filter)?.some((t) => t.name === subName.toLowerCase())) {
      const key = Object.keys(current).find((k) => k.toLowerCase() === parsed.path.name.toLowerCase());
      const matching = ((key ? current[key] : undefined) as Record<string, unknown>[] | undefined)?.filter((e) => testsOf(parsed.filter!)!.every((t) => same(subOf(e, t.name), t.value))) ?? [];
      if (matching.length) {
        const filterText = path.slice(path.indexOf("["), path.lastIndexOf("]") + 1);
        out.push({ op: "remove", path: `${parsed.path.name}${filterText}` });
        out.push({ op: "add", path: parsed.path.name, value: matching.map((e) => ({ ...Object.fromEntries(Object.entries(e).filter(([k]) => k.toLowerCase() !== subName.toLowerCase())), [subName]: value })) });
        continue;
      }
    }
    // A complex single-valued attribute (name, manager) and its sub-attributes, without a value filter.
    const attr = `${parsed.path.uri !== undefined ? `${parsed.path.uri}:` : ""}${parsed.path.name}`;
    const def = parsed.filter === undefined ? definitionOf(resource, attr) : undefined;
    if (def && String(def.type) === "complex" && !def.config.multiValued) {
      if (op === "remove") {
        if (parsed.path.sub === undefined) has.set(attr.toLowerCase(), false);
      } else if (parsed.path.sub !== undefined) {
        if (!present(attr)) {
          out.push({ op: "add", path: attr, value: { [parsed.path.sub]: value } });
          has.set(attr.toLowerCase(), true);
          continue;
        }
      } else if (value && typeof value === "object" && !Array.isArray(value)) {
        if (present(attr)) {
          for (const [sub, sv] of Object.entries(value as Record<string, unknown>)) out.push({ op, path: `${attr}.${sub}`, value: sv });
          continue;
        }
        has.set(attr.toLowerCase(), true);
      }
    }
    out.push({ op, path, ...(value !== undefined ? { value } : {}) });
  }
  return { schemas: [PATCH_OP], Operations: out };
}
