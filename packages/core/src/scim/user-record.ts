import type { EmployeeRuleError } from "../employees/rules.ts";
import type { Tx } from "../employees/store.ts";
import type { EmployeeStatus, SyncEmployee } from "../employees/types.ts";
import { ENTERPRISE, ScimError, asScimError, normalizeResource, scim } from "./protocol.ts";
import type { ScimContext } from "./users.ts";

/**
 * A SCIM User as an employee record of the employee sync: the body validated by scimmy, its
 * attributes mapped to the employee's fields, and the employee's own row as the write finds it.
 */

const LONG_TEXT = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Parsed = Record<string, unknown> & { userName?: string; externalId?: string; active?: boolean; name?: { givenName?: string; familyName?: string; formatted?: string } };

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

/** The e-mail the employee gets: the work one, else the primary, else the first, else userName when it is an e-mail. */
export function emailOf(u: Parsed): string | null {
  const emails = (u.emails as { value?: string; type?: string; primary?: boolean }[] | undefined) ?? [];
  const chosen = emails.find((e) => e.type?.toLowerCase() === "work") ?? emails.find((e) => e.primary) ?? emails[0];
  const email = text(chosen?.value, "emails.value", 320) ?? (u.userName && EMAIL.test(u.userName) ? u.userName : null);
  if (email !== null && !EMAIL.test(email)) throw new ScimError(400, "invalidValue", `'${email}' is not a valid e-mail address`);
  return email;
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
}

/** The employee `id` of the organization that is a SCIM User (not deleted through SCIM), row-locked when `lock`; null when there is none. */
export async function currentOf(tx: Tx, ctx: ScimContext, id: string, lock: boolean): Promise<Current | null> {
  const [row] = await tx<{ id: string; external_employee_id: string; email: string | null; status: EmployeeStatus; metadata: Record<string, unknown> | null; manager_id: string | null }[]>`
    select id, external_employee_id, email, status, metadata, manager_id from employees
    where organization_id = ${ctx.organizationId} and id = ${id} and scim_deleted_at is null ${lock ? tx`for update` : tx``}`;
  return row ? { id: row.id, externalEmployeeId: row.external_employee_id, email: row.email, status: row.status, metadata: row.metadata, managerId: row.manager_id } : null;
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

export const NO_EMAIL = "A User needs an e-mail address (its account is made with it): give a work e-mail in emails, or a userName that is an e-mail address";

/**
 * The employee record a full User resource amounts to (replace semantics: what the resource
 * leaves out is cleared, except the status: see statusOf). `requireEmail`: a write without any
 * e-mail is a 400 (every User created or replaced through SCIM gets an account).
 */
export async function toRecord(
  tx: Tx,
  ctx: ScimContext,
  u: Parsed,
  externalEmployeeId: string,
  current: Current | null,
  opts: { requireEmail: boolean; status: EmployeeStatus },
): Promise<{ record: SyncEmployee; managerId: string | null | undefined }> {
  const userName = text(u.userName, "userName", 320);
  if (!userName) throw new ScimError(400, "invalidValue", "userName is required");
  const email = emailOf(u);
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
    phone: text((u.phoneNumbers as { value?: string }[] | undefined)?.[0]?.value, "phoneNumbers.value", 255),
    jobTitle: text(u.title, "title"),
    department: text(ext.department, "department", 255),
    ...(supervisor !== undefined ? { supervisor } : {}),
    metadata: Object.keys(metadata).length ? metadata : null,
    userAccount: { username: userName, forcePasswordReset: false, sendWelcomeEmail: false },
    updateMode: "additive",
  };
  return { record, managerId };
}

/** Rules of the employee sync that fail a SCIM write: conflicts with other users are 409 uniqueness, the rest 400. */
export function ruleError(err: EmployeeRuleError): ScimError {
  return /already|taken|administrator/i.test(err.message) ? new ScimError(409, "uniqueness", err.message) : new ScimError(400, "invalidValue", err.message);
}
