import { createHash } from "node:crypto";
import SCIMMY from "scimmy";
import { etagListMatches } from "../etag.ts";
import { ScimError, asScimError, type ScimType } from "./errors.ts";

export { ScimError, asScimError, type ScimType };

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) with the scimmy library: its schemas (trimmed to what the
 * service keeps: describeService) validate and coerce resources, its PatchOp applies PATCH
 * operations (made RFC-shaped first: patch-rewrites.ts), its messages shape list, error and bulk
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

/** "True" and "False" (any case) as booleans; any other value as it is. */
export const toBool = (v: unknown) => (typeof v === "string" && /^(true|false)$/i.test(v) ? v.toLowerCase() === "true" : v);

/** Drops nulls everywhere (Entra sends `"$ref": null`, `"addresses": null`): absent, as the RFC treats them. */
export function dropNulls<T>(v: T): T {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls) as T;
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, dropNulls(x)]),
    ) as T;
  return v;
}

/** A manager in any of the forms identity providers send: an id, `{value}`, `[{value, $ref}]`. */
export function managerValue(v: unknown): { value: string } | undefined {
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
