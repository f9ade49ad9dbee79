import type { SqlTx } from "@insp/db";
import type { EmployeeRuleError } from "../employees/rules.ts";
import type { EmployeeStatus, SyncEmployee } from "../employees/types.ts";
import { ENTERPRISE, ScimError, asScimError, normalizeResource, scim } from "./protocol.ts";
import { KEPT_STRINGS, type ScimAttributes, type ScimContext } from "./users.ts";

/**
 * A SCIM User as an employee record of the employee sync: the body validated by scimmy, its
 * attributes mapped to the employee's fields, and the employee's own row as the write finds it.
 */

const LONG_TEXT = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Parsed = Record<string, unknown> & { userName?: string; externalId?: string; active?: boolean; name?: Record<string, string | undefined> };

/** One value of a multi-valued attribute as scimmy leaves it. */
interface Entry {
  value?: string;
  type?: string;
  primary?: boolean;
}

/** A User body validated and coerced by scimmy's schema (read-only attributes such as id, groups and meta are dropped). */
export function parseUser(body: unknown): Parsed {
  try {
    return JSON.parse(JSON.stringify(new (scim().Schemas.User)(normalizeResource(body), "in"))) as Parsed;
  } catch (err) {
    throw asScimError(err) ?? err;
  }
}

export const text = (v: unknown, what: string, max = LONG_TEXT): string | null => {
  if (v === undefined || v === null || v === "") return null;
  const s = String(v).trim();
  if (s.length > max) throw new ScimError(400, "invalidValue", `${what} must be at most ${max} characters`);
  return s || null;
};

/** The one value of `emails` or `phoneNumbers` the employee keeps: the work one, else the primary, else the first. */
function chosen(list: unknown): Entry | undefined {
  const entries = ((list as Entry[] | undefined) ?? []).filter((e) => e.value !== undefined && e.value !== "");
  return entries.find((e) => e.type?.toLowerCase() === "work") ?? entries.find((e) => e.primary) ?? entries[0];
}

/** The e-mail the employee gets (see chosen), else userName when it is an e-mail; with the type and primary flag it came with. */
function chosenEmail(u: Parsed): (Entry & { value: string }) | null {
  const entry = chosen(u.emails);
  const value = text(entry?.value, "emails.value", 320);
  if (value !== null && !EMAIL.test(value)) throw new ScimError(400, "invalidValue", `'${value}' is not a valid e-mail address`);
  if (value !== null) return { ...entry, value };
  return u.userName && EMAIL.test(u.userName) ? { value: u.userName } : null;
}

export const emailOf = (u: Parsed): string | null => chosenEmail(u)?.value ?? null;

/**
 * What the User keeps in employees.scim_attributes (users.ts, ScimAttributes): the kept
 * strings as sent, and the type and primary flag of the e-mail and phone number kept.
 */
function attributesOf(u: Parsed, email: Entry | null, phone: Entry | undefined): ScimAttributes | null {
  const out: Record<string, unknown> = {};
  for (const {
    scim: path,
    kept: [key, sub],
  } of KEPT_STRINGS) {
    const [attr, name] = path.startsWith(`${ENTERPRISE}:`)
      ? [u[ENTERPRISE], path.slice(ENTERPRISE.length + 1)]
      : path.includes(".")
        ? [u[path.split(".")[0]!], path.split(".")[1]!]
        : [u, path];
    const v = text((attr as Record<string, unknown> | undefined)?.[name], path);
    if (v === null) continue;
    if (sub) out[key] = { ...(out[key] as object | undefined), [sub]: v };
    else out[key] = v;
  }
  // An entry's type and primary flag, with its value (they apply while it stays the employee's);
  // nothing for what the User shows without them (type work; an e-mail's primary true).
  const flags = (e: Entry | null | undefined, what: string, max: number, primaryByDefault: boolean | undefined) => {
    const value = text(e?.value, `${what}.value`, max); // as the employee's column holds it
    const type = text(e?.type, `${what}.type`, 255);
    const kept = {
      ...(type && type.toLowerCase() !== "work" ? { type } : {}),
      ...(e?.primary !== undefined && e.primary !== primaryByDefault ? { primary: e.primary } : {}),
    };
    return value && Object.keys(kept).length ? { value, ...kept } : undefined;
  };
  const emailFlags = flags(email, "emails", 320, true);
  const phoneFlags = flags(phone, "phoneNumbers", 255, undefined);
  if (emailFlags) out.email = emailFlags;
  if (phoneFlags) out.phone = phoneFlags;
  return Object.keys(out).length ? (out as ScimAttributes) : null;
}

/** The externalEmployeeId a User body asks for (without one: `fallback`). */
export const externalIdOf = (u: Parsed, fallback: string): string => text(u.externalId, "externalId", 255) ?? fallback;

/** The employee's row as the write finds it. */
export interface Current {
  id: string;
  externalEmployeeId: string;
  email: string | null;
  status: EmployeeStatus;
  metadata: Record<string, unknown> | null;
  managerId: string | null;
  scimAttributes: ScimAttributes | null;
}

/** The employee `id` of the organization that is a SCIM User (not deleted through SCIM), row-locked when `lock`; null when there is none. */
export async function currentOf(tx: SqlTx, ctx: ScimContext, id: string, lock: boolean): Promise<Current | null> {
  const [row] = await tx<
    {
      id: string;
      external_employee_id: string;
      email: string | null;
      status: EmployeeStatus;
      metadata: Record<string, unknown> | null;
      manager_id: string | null;
      scim_attributes: ScimAttributes | null;
    }[]
  >`
    select id, external_employee_id, email, status, metadata, manager_id, scim_attributes from employees
    where organization_id = ${ctx.organizationId} and id = ${id} and scim_deleted_at is null ${lock ? tx`for update` : tx``}`;
  return row
    ? {
        id: row.id,
        externalEmployeeId: row.external_employee_id,
        email: row.email,
        status: row.status,
        metadata: row.metadata,
        managerId: row.manager_id,
        scimAttributes: row.scim_attributes,
      }
    : null;
}

/**
 * The status a User write leaves: `active` true is ACTIVE; false is INACTIVE, except that a
 * TERMINATED employee stays TERMINATED; without `active` the status stays as it is (ACTIVE for
 * a new employee).
 */
export function statusOf(active: boolean | undefined, current: EmployeeStatus | null): EmployeeStatus {
  if (active === true) return "ACTIVE";
  if (active === false) return current === "TERMINATED" ? "TERMINATED" : "INACTIVE";
  return current ?? "ACTIVE";
}

const NO_EMAIL = "A User needs an e-mail address (its account is made with it): give a work e-mail in emails, or a userName that is an e-mail address";

/**
 * The employee record a full User resource amounts to (replace semantics: what the resource
 * leaves out is cleared, except the status: see statusOf). `requireEmail`: a write without any
 * e-mail is a 400 (every User created or replaced through SCIM gets an account).
 */
export async function toRecord(
  tx: SqlTx,
  ctx: ScimContext,
  u: Parsed,
  externalEmployeeId: string,
  current: Current | null,
  opts: { requireEmail: boolean; status: EmployeeStatus },
): Promise<{ record: SyncEmployee; managerId: string | null | undefined; attributes: ScimAttributes | null }> {
  const userName = text(u.userName, "userName", 320);
  if (!userName) throw new ScimError(400, "invalidValue", "userName is required");
  const chosenOne = chosenEmail(u);
  const email = chosenOne?.value ?? null;
  const phone = chosen(u.phoneNumbers);
  if (!email && opts.requireEmail) throw new ScimError(400, "invalidValue", NO_EMAIL);
  const ext = (u[ENTERPRISE] ?? {}) as { department?: string; employeeNumber?: string; manager?: { value?: string } };
  const metadata = { ...(current?.metadata ?? {}) };
  if (ext.employeeNumber !== undefined) metadata.employeeNumber = text(ext.employeeNumber, "employeeNumber", 255);
  else delete metadata.employeeNumber;
  let managerId: string | null | undefined;
  let supervisor: SyncEmployee["supervisor"];
  if (ext.manager?.value) {
    const [m] = await tx<{ id: string; display_name: string | null; email: string | null }[]>`
      select id, display_name, email from employees where organization_id = ${ctx.organizationId} and id::text = ${ext.manager.value} and scim_deleted_at is null`;
    if (!m) throw new ScimError(400, "invalidValue", `manager '${ext.manager.value}' is not a User of this organization`);
    if (m.id === current?.id) throw new ScimError(400, "invalidValue", "A user cannot be their own manager");
    managerId = m.id;
    supervisor = { ...(m.display_name ? { name: m.display_name } : {}), ...(m.email ? { email: m.email } : {}) };
  } else if (current?.managerId) {
    managerId = null;
    supervisor = null;
  }
  const record: SyncEmployee = {
    externalEmployeeId,
    status: opts.status,
    firstName: text(u.name?.givenName, "name.givenName"),
    lastName: text(u.name?.familyName, "name.familyName"),
    // Without a displayName, the name's parts (the HR sync's own default).
    displayName: text(u.displayName, "displayName") ?? (([u.name?.givenName, u.name?.familyName].filter(Boolean).join(" ") || null) as string | null),
    email,
    phone: text(phone?.value, "phoneNumbers.value", 255),
    jobTitle: text(u.title, "title"),
    department: text(ext.department, "department", 255),
    ...(supervisor !== undefined ? { supervisor } : {}),
    metadata: Object.keys(metadata).length ? metadata : null,
    userAccount: { username: userName, forcePasswordReset: false, sendWelcomeEmail: false },
    updateMode: "additive",
  };
  return { record, managerId, attributes: attributesOf(u, chosenOne, phone) };
}

/** Rules of the employee sync that fail a SCIM write: conflicts with other users are 409 uniqueness, the rest 400. */
export function ruleError(err: EmployeeRuleError): ScimError {
  return /already|taken|administrator/i.test(err.message) ? new ScimError(409, "uniqueness", err.message) : new ScimError(400, "invalidValue", err.message);
}
