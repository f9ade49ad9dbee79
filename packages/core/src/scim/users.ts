import type postgres from "postgres";
import { isoText, type Db } from "@insp/db";
import { isUuid } from "../errors.ts";
import { filterToSql, scalar, type FilterTarget } from "./filter.ts";
import { ENTERPRISE, MAX_RESULTS, ScimError, USER_SCHEMA, scim, versionOf } from "./protocol.ts";

/**
 * SCIM Users are the organization's employees with their accounts: `id` is the employee id,
 * `externalId` its externalEmployeeId, `userName` its account's username, `active` its status
 * ACTIVE, the enterprise extension its department, manager and employeeNumber (kept in
 * metadata.employeeNumber). Employees deleted through SCIM are not resources any more.
 */

export interface ScimContext {
  db: Db;
  organizationId: string;
  /** The OAuth client calling (audit and the employees' last sync request). */
  clientId: string | null;
  requestId: string | null;
  /** https://host/scim/v2: meta.location and Location headers. */
  baseUrl: string;
  /** DIRECTORY_MAX_PER_ORG for new groups (undefined: not limited). */
  maxGroups?: number;
}

const USER_NAME = "coalesce(u.username, e.email, e.external_employee_id)";

/**
 * What SCIM keeps in employees.scim_attributes (the employee has no column for it): the
 * name's parts other than given and family name, and its formatted form as the client sent
 * it; nickName, profileUrl, userType, preferredLanguage, locale and timezone; the type and
 * primary flag of the one e-mail and phone number kept (each with its value, so that they
 * apply only while that is still the employee's e-mail or phone: an HR sync may change it);
 * the enterprise costCenter, organization and division.
 */
export interface ScimAttributes {
  name?: { formatted?: string; middleName?: string; honorificPrefix?: string; honorificSuffix?: string };
  nickName?: string;
  profileUrl?: string;
  userType?: string;
  preferredLanguage?: string;
  locale?: string;
  timezone?: string;
  email?: { value: string; type?: string; primary?: boolean };
  phone?: { value: string; type?: string; primary?: boolean };
  enterprise?: { costCenter?: string; organization?: string; division?: string };
}

/** The single-valued strings kept, as paths of the User resource and of ScimAttributes. */
export const KEPT_STRINGS: { scim: string; kept: [keyof ScimAttributes, string?] }[] = [
  { scim: "name.formatted", kept: ["name", "formatted"] },
  { scim: "name.middleName", kept: ["name", "middleName"] },
  { scim: "name.honorificPrefix", kept: ["name", "honorificPrefix"] },
  { scim: "name.honorificSuffix", kept: ["name", "honorificSuffix"] },
  ...(["nickName", "profileUrl", "userType", "preferredLanguage", "locale", "timezone"] as const).map((k) => ({
    scim: k,
    kept: [k] as [keyof ScimAttributes],
  })),
  ...(["costCenter", "organization", "division"] as const).map((k) => ({
    scim: `${ENTERPRISE}:${k}`,
    kept: ["enterprise", k] as [keyof ScimAttributes, string],
  })),
];

/** SQL of a kept string (paths from this file only). */
const kept = (path: [string, string?]) => `(e.scim_attributes #>> '{${path.filter(Boolean).join(",")}}')`;
const KEPT_EMAIL = "(case when lower(e.scim_attributes #>> '{email,value}') = lower(e.email) then e.scim_attributes -> 'email' end)";
const KEPT_PHONE = "(case when e.scim_attributes #>> '{phone,value}' = e.phone then e.scim_attributes -> 'phone' end)";
/** name.formatted: as the client sent it, else the name's parts (toScimUser does the same). */
const FORMATTED = `coalesce(${kept(["name", "formatted"])}, nullif(concat_ws(' ', ${kept(["name", "honorificPrefix"])}, e.first_name, ${kept(["name", "middleName"])}, e.last_name, ${kept(["name", "honorificSuffix"])}), ''))`;

const definition = () => scim().Schemas.User.definition;

/**
 * What users can be filtered on (filter.ts): every attribute /Schemas publishes but the URIs
 * ($ref), groups.type and meta's resourceType, location and version. Types and caseExact as
 * /Schemas gives them (checked by scim-filter.unit.test.ts); id and externalId are caseExact
 * (RFC 7643 section 3.1).
 */
export const USER_FILTER: FilterTarget = {
  resourceType: "User",
  schema: USER_SCHEMA,
  attributes: {
    id: scalar("e.id::text", "string", true),
    externalid: scalar("e.external_employee_id", "string", true),
    username: scalar(USER_NAME),
    name: {
      kind: "complex",
      sub: {
        formatted: scalar(FORMATTED),
        familyname: scalar("e.last_name"),
        givenname: scalar("e.first_name"),
        middlename: scalar(kept(["name", "middleName"])),
        honorificprefix: scalar(kept(["name", "honorificPrefix"])),
        honorificsuffix: scalar(kept(["name", "honorificSuffix"])),
      },
    },
    displayname: scalar("e.display_name"),
    nickname: scalar(kept(["nickName"])),
    profileurl: scalar(kept(["profileUrl"]), "reference"),
    title: scalar("e.job_title"),
    usertype: scalar(kept(["userType"])),
    preferredlanguage: scalar(kept(["preferredLanguage"])),
    locale: scalar(kept(["locale"])),
    timezone: scalar(kept(["timezone"])),
    active: scalar("(e.status = 'ACTIVE')", "boolean"),
    emails: {
      kind: "complex",
      multi: { present: "e.email is not null" },
      sub: {
        value: scalar("e.email"),
        type: scalar(`coalesce(${KEPT_EMAIL} ->> 'type', 'work')`),
        primary: scalar(`coalesce((${KEPT_EMAIL} ->> 'primary')::boolean, true)`, "boolean"),
      },
    },
    phonenumbers: {
      kind: "complex",
      multi: { present: "e.phone is not null" },
      sub: {
        value: scalar("e.phone"),
        type: scalar(`coalesce(${KEPT_PHONE} ->> 'type', 'work')`),
        primary: scalar(`(${KEPT_PHONE} ->> 'primary')::boolean`, "boolean"),
      },
    },
    groups: {
      kind: "complex",
      multi: {
        exists: "select 1 from employee_groups eg join groups gg on gg.id = eg.group_id where eg.employee_id = e.id and gg.organization_id = e.organization_id",
      },
      sub: { value: scalar("gg.id::text"), display: scalar("gg.name") },
    },
    meta: { kind: "complex", sub: { created: scalar("e.created_at", "dateTime"), lastmodified: scalar("e.updated_at", "dateTime") } },
  },
  extensions: {
    [ENTERPRISE.toLowerCase()]: {
      employeenumber: scalar("(e.metadata->>'employeeNumber')"),
      costcenter: scalar(kept(["enterprise", "costCenter"])),
      organization: scalar(kept(["enterprise", "organization"])),
      division: scalar(kept(["enterprise", "division"])),
      department: scalar("e.department"),
      manager: {
        kind: "complex",
        sub: {
          value: scalar("e.manager_id::text"),
          displayname: scalar("(select mm.display_name from employees mm where mm.id = e.manager_id and mm.organization_id = e.organization_id)"),
        },
      },
    },
  },
  declares: (path) => {
    try {
      definition().attribute(path);
      return true;
    } catch {
      return false;
    }
  },
};

interface UserRow {
  id: string;
  external_employee_id: string;
  status: string;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  department: string | null;
  metadata: Record<string, unknown> | null;
  scim_attributes: ScimAttributes | null;
  manager_id: string | null;
  manager_name: string | null;
  user_name: string;
  created: string;
  modified: string;
  groups: { value: string; display: string }[];
}

type Sql = postgres.Sql | postgres.TransactionSql;

function selectUsers(sql: Sql, organizationId: string, where: postgres.PendingQuery<postgres.Row[]>, page?: { offset: number; limit: number }) {
  return sql<UserRow[]>`
    select e.id, e.external_employee_id, e.status, e.first_name, e.last_name, e.display_name, e.email, e.phone, e.job_title, e.department,
      e.metadata, e.scim_attributes, e.manager_id, m.display_name as manager_name, ${sql.unsafe(USER_NAME)} as user_name,
      ${sql.unsafe(isoText("e.created_at"))} as created, ${sql.unsafe(isoText("e.updated_at"))} as modified,
      coalesce((select json_agg(json_build_object('value', g.id, 'display', g.name) order by g.name, g.id)
        from employee_groups eg join groups g on g.id = eg.group_id where eg.employee_id = e.id and g.organization_id = ${organizationId}), '[]') as groups
    from employees e
    left join users u on u.id = e.user_id and u.organization_id = ${organizationId}
    left join employees m on m.id = e.manager_id and m.organization_id = ${organizationId}
    where e.organization_id = ${organizationId} and e.scim_deleted_at is null and ${where}
    order by e.created_at, e.id
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
}

/** Only the entries with a value (absent attributes are left out, never null: RFC 7643 section 2.5). */
const compact = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== "")) as Partial<T>;

/** The SCIM representation of an employee (RFC 7643 section 4.1, with the enterprise extension). */
function toScimUser(r: UserRow, baseUrl: string): Record<string, unknown> {
  const k = r.scim_attributes ?? {};
  const employeeNumber = typeof r.metadata?.employeeNumber === "string" ? r.metadata.employeeNumber : undefined;
  const enterprise = compact({
    employeeNumber,
    costCenter: k.enterprise?.costCenter,
    organization: k.enterprise?.organization,
    division: k.enterprise?.division,
    department: r.department,
    ...(r.manager_id
      ? { manager: { value: r.manager_id, $ref: `${baseUrl}/Users/${r.manager_id}`, ...(r.manager_name ? { displayName: r.manager_name } : {}) } }
      : {}),
  });
  const parts = compact({
    familyName: r.last_name,
    givenName: r.first_name,
    middleName: k.name?.middleName,
    honorificPrefix: k.name?.honorificPrefix,
    honorificSuffix: k.name?.honorificSuffix,
  });
  // formatted: as the client sent it, else the parts joined (RFC 7643 section 4.1.1: "Ms. Barbara Jane Jensen, III").
  const joined = [parts.honorificPrefix, parts.givenName, parts.middleName, parts.familyName, parts.honorificSuffix].filter(Boolean).join(" ");
  const name = compact({ formatted: k.name?.formatted ?? joined, ...parts });
  // The type and primary flag kept apply while the e-mail (phone) is still the one they came with.
  const email = r.email && k.email && k.email.value.toLowerCase() === r.email.toLowerCase() ? k.email : undefined;
  const phone = r.phone && k.phone && k.phone.value === r.phone ? k.phone : undefined;
  const resource: Record<string, unknown> = {
    schemas: Object.keys(enterprise).length ? [USER_SCHEMA, ENTERPRISE] : [USER_SCHEMA],
    id: r.id,
    externalId: r.external_employee_id,
    userName: r.user_name,
    ...(Object.keys(name).length ? { name } : {}),
    ...compact({
      displayName: r.display_name,
      nickName: k.nickName,
      profileUrl: k.profileUrl,
      title: r.job_title,
      userType: k.userType,
      preferredLanguage: k.preferredLanguage,
      locale: k.locale,
      timezone: k.timezone,
    }),
    active: r.status === "ACTIVE",
    emails: r.email ? [{ value: r.email, type: email?.type ?? "work", primary: email?.primary ?? true }] : [],
    ...(r.phone
      ? { phoneNumbers: [{ value: r.phone, type: phone?.type ?? "work", ...(phone?.primary !== undefined ? { primary: phone.primary } : {}) }] }
      : {}),
    groups: r.groups.map((g) => ({ value: g.value, display: g.display, $ref: `${baseUrl}/Groups/${g.value}`, type: "direct" })),
    ...(Object.keys(enterprise).length ? { [ENTERPRISE]: enterprise } : {}),
  };
  resource.meta = { resourceType: "User", created: r.created, lastModified: r.modified, location: `${baseUrl}/Users/${r.id}`, version: versionOf(resource) };
  return resource;
}

/** One user of the organization (404 for an unknown, malformed, deleted or another organization's id); `sql`: a write's transaction. */
export async function getScimUser(ctx: ScimContext, id: string, sql: Sql = ctx.db.$client): Promise<Record<string, unknown>> {
  const row = isUuid(id) ? (await selectUsers(sql, ctx.organizationId, sql`e.id = ${id}`))[0] : undefined;
  if (!row) throw new ScimError(404, undefined, `User ${id} not found`);
  return toScimUser(row, ctx.baseUrl);
}

export interface Page {
  startIndex: number;
  count: number;
}

/** A page of users matching `filter` (in creation order, the same on every page), and how many match in all. */
export async function listScimUsers(
  ctx: ScimContext,
  filter: string | undefined,
  page: Page,
): Promise<{ total: number; resources: Record<string, unknown>[] }> {
  const sql = ctx.db.$client;
  const where = filterToSql(sql, filter, USER_FILTER);
  const [{ n }] = (await sql`
    select count(*)::int as n from employees e left join users u on u.id = e.user_id and u.organization_id = ${ctx.organizationId}
    where e.organization_id = ${ctx.organizationId} and e.scim_deleted_at is null and ${where}`) as unknown as [{ n: number }];
  const rows =
    page.count === 0 ? [] : await selectUsers(sql, ctx.organizationId, where, { offset: page.startIndex - 1, limit: Math.min(page.count, MAX_RESULTS) });
  return { total: n, resources: rows.map((r) => toScimUser(r, ctx.baseUrl)) };
}
