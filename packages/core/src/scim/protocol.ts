import { createHash } from "node:crypto";
import SCIMMY from "scimmy";

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) with the scimmy library: its schemas validate and coerce
 * resources, its PatchOp applies PATCH operations, its Filter parses filters (filter.ts turns
 * them into SQL), its messages shape list, error and bulk answers, and its resources describe
 * the service (ServiceProviderConfig, ResourceTypes, Schemas). scimmy's registry is global, so
 * it is set up once and holds nothing of any tenant.
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

/** scimmy, declared and configured on first use. */
export function scim(): typeof SCIMMY {
  if (!configured) {
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

export type ScimType = "uniqueness" | "tooMany" | "invalidFilter" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue" | "invalidVers" | "sensitive";

/** An error the SCIM routes answer as `{schemas: [Error], status, scimType?, detail}`. */
export class ScimError extends Error {
  constructor(
    public readonly status: number,
    public readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(detail);
    this.name = "ScimError";
  }
}

/** scimmy's own errors (its Types.Error), and the TypeError its schemas throw on a bad resource, as ScimError. */
export function asScimError(err: unknown): ScimError | null {
  if (err instanceof ScimError) return err;
  const e = err as { status?: unknown; scimType?: unknown; message?: unknown };
  if (err instanceof Error && typeof e.status === "number" && err.name === "SCIMError") return new ScimError(e.status, e.scimType as ScimType | undefined, String(e.message));
  if (err instanceof TypeError) return new ScimError(400, "invalidValue", err.message);
  return null;
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

/** The opaque tags of an ETag list (`W/"a", "b"`), weak and strong alike: the `W/` and the quotes dropped. */
const tagsOf = (header: string) =>
  header
    .split(",")
    .map((t) => t.trim().replace(/^W\//i, "").replace(/^"(.*)"$/, "$1"))
    .filter((t) => t !== "");

/**
 * Whether an If-Match or If-None-Match header names the version: `*`, or any tag of its list
 * equal to it by weak comparison (RFC 9110 section 8.8.3.2: `W/"x"` and `"x"` match).
 */
export function etagMatches(header: string, version: string): boolean {
  const [mine] = tagsOf(version);
  return tagsOf(header).some((t) => t === "*" || t === mine);
}

/** If-Match (RFC 7644 section 3.14): `*` or any listed tag equal to the current version, weak or strong; else 412. */
export function checkIfMatch(ifMatch: string | undefined, version: string): void {
  if (ifMatch === undefined || etagMatches(ifMatch, version)) return;
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

/**
 * A PATCH body made what scimmy applies, for the forms Okta and Microsoft Entra send: op names
 * in any case ("Replace"), "True"/"False" for booleans (by path or inside a path-less value),
 * nulls, the manager by id or as `[{value, $ref}]` (also at path "manager"), members removed by
 * listing them in `value` instead of a filtered path (a path-less remove of "members" would
 * remove every member), and `emails[type eq "work"].value` added or replaced while the user has
 * no work e-mail yet (it creates one).
 */
export function normalizePatch(body: unknown, current: Record<string, unknown>): { schemas: [typeof PATCH_OP]; Operations: { op: "add" | "remove" | "replace"; path?: string; value?: unknown }[] } {
  if (!body || typeof body !== "object") throw new ScimError(400, "invalidSyntax", "The request body must be a PatchOp message");
  const b = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(b.schemas) || !b.schemas.includes(PATCH_OP)) throw new ScimError(400, "invalidSyntax", `PATCH bodies must name the schema ${PATCH_OP}`);
  if (!Array.isArray(b.Operations) || b.Operations.length === 0) throw new ScimError(400, "invalidValue", "PATCH bodies must carry at least one operation in Operations");
  const out: { op: "add" | "remove" | "replace"; path?: string; value?: unknown }[] = [];
  for (const raw of b.Operations as PatchOperation[]) {
    if (!raw || typeof raw !== "object" || typeof raw.op !== "string") throw new ScimError(400, "invalidSyntax", "Each operation needs an op");
    const op = raw.op.toLowerCase();
    if (op !== "add" && op !== "remove" && op !== "replace") throw new ScimError(400, "invalidSyntax", `Unknown operation '${raw.op}'`);
    let path = typeof raw.path === "string" && raw.path.trim() ? raw.path.trim() : undefined;
    let value = dropNulls(raw.value);
    if (path && /^manager$/i.test(path)) path = `${ENTERPRISE}:manager`;
    if (path && path.toLowerCase() === `${ENTERPRISE}:manager`.toLowerCase() && op !== "remove") value = managerValue(value);
    if (path && BOOLEAN_PATHS.has(path.toLowerCase())) value = toBool(value);
    if (!path && value && typeof value === "object" && !Array.isArray(value)) {
      const v = { ...(value as Record<string, unknown>) };
      for (const k of Object.keys(v)) if (BOOLEAN_PATHS.has(k.toLowerCase())) v[k] = toBool(v[k]);
      const ext = v[ENTERPRISE] as Record<string, unknown> | undefined;
      if (ext && typeof ext === "object" && "manager" in ext) v[ENTERPRISE] = { ...ext, manager: managerValue(ext.manager) };
      const dotted = Object.keys(v).find((k) => k.toLowerCase() === `${ENTERPRISE}:manager`.toLowerCase());
      if (dotted) v[dotted] = managerValue(v[dotted]);
      value = v;
    }
    if (op === "remove" && path?.toLowerCase() === "members" && Array.isArray(value)) {
      for (const m of value as { value?: unknown }[]) if (typeof m?.value === "string") out.push({ op: "remove", path: `members[value eq "${m.value.replaceAll('"', "")}"]` });
      continue;
    }
    const typed = path?.match(/^(emails|phoneNumbers|addresses)\[type eq "([^"]+)"\]\.(\w+)$/i);
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
    out.push({ op, ...(path !== undefined ? { path } : {}), ...(value !== undefined ? { value } : {}) });
  }
  return { schemas: [PATCH_OP], Operations: out };
}
