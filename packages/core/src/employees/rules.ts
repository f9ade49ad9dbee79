import { stableJson } from "../stable-json.ts";
import type { Assignments, EmployeeFields, ResolvedRefs, SyncEmployee } from "./types.ts";

/**
 * Pure employee-sync rules: no I/O, no framework, tested without a database. The service loads the
 * current state and the organization's reference data, these functions decide, and
 * the service writes the difference.
 */

/** Spec, Errors: per-employee messages (entries of errors[]), word for word (except the one marked ours). */
export const RULE_MESSAGES = {
  emailInOtherOrganization: "User with that e-mail already exists in a different organization",
  emailLinkedToOtherEmployee: "User with that e-mail already exists and is linked to another employee",
  siteManagerWithoutSite: "Cannot assign site_manager role: employee must have at least one site assigned",
  siteManagerSiteLevelWithoutRole: "Cannot assign site_manager role at site level: employee must have site_manager in their roles array",
  siteManagerNoSiteLeft: "site_manager role requires at least one site assignment",
  /** Ours: a sync never takes over an administrator's account (it would rename, disable or e-mail it). */
  emailOfAdministrator: "User with that e-mail is an administrator account and cannot be linked to an employee",
} as const;

export const usernameTakenMessage = (username: string) => `Username '${username}' is already taken in this organization`;

/** Spec, Errors: warnings (entries of results[].warnings), word for word. */
const WARNINGS = {
  roleNotFound: (name: string) => `Role '${name}' not found, skipped`,
  groupNotFound: (name: string) => `Group '${name}' not found, skipped`,
  siteNotFound: (id: string) => `Site with id '${id}' not found, skipped`,
} as const;

/** A business-rule failure: final for this employee (no retry), reported in errors[]. */
export class EmployeeRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmployeeRuleError";
  }
}

const SITE_MANAGER = "site_manager";

export const isActive = (e: Pick<SyncEmployee, "status">) => e.status === "ACTIVE";

const sameJson = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);
/** displayName, when not given: "firstName lastName" (either may be missing). */
export function generatedDisplayName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName].filter((p) => p && p.trim()).join(" ");
  return name || null;
}

/**
 * The employee's columns after this sync: a given field replaces, null clears, an
 * absent one keeps the stored value. `changed` is false when nothing differs, so a
 * repeated batch writes nothing.
 */
export function mergeFields(
  current: EmployeeFields | null,
  e: SyncEmployee,
): { fields: EmployeeFields; changed: boolean; changedFields: (keyof EmployeeFields)[] } {
  const pick = <K extends keyof EmployeeFields>(k: K & keyof SyncEmployee): EmployeeFields[K] => {
    const given = e[k] as EmployeeFields[K] | undefined;
    return given !== undefined ? given : ((current?.[k] ?? null) as EmployeeFields[K]);
  };
  const firstName = pick("firstName");
  const lastName = pick("lastName");
  const fields: EmployeeFields = {
    status: e.status,
    firstName,
    lastName,
    displayName: e.displayName ?? generatedDisplayName(firstName, lastName) ?? current?.displayName ?? null,
    email: pick("email"),
    phone: pick("phone"),
    jobTitle: pick("jobTitle"),
    department: pick("department"),
    supervisor: pick("supervisor"),
    hireDate: pick("hireDate"),
    terminationDate: pick("terminationDate"),
    metadata: pick("metadata"),
  };
  // For a new employee: the fields it was given a value for.
  const changedFields = (Object.keys(fields) as (keyof EmployeeFields)[]).filter((k) => (current ? !sameJson(fields[k], current[k]) : fields[k] !== null));
  return { fields, changed: !current || changedFields.length > 0, changedFields };
}

/**
 * The assignments the employee ends with (Processing rules 4 to 8), with the
 * warnings for missing roles, groups and sites. INACTIVE and TERMINATED remove every
 * assignment (Employee status). Throws EmployeeRuleError for the site_manager rules,
 * which are checked after missing sites are skipped.
 */
export function planAssignments(e: SyncEmployee, current: Assignments, refs: ResolvedRefs): { desired: Assignments; warnings: string[] } {
  const desired: Assignments = { roles: new Map(), groups: new Map(), sites: new Map() };
  // A Set keeps the first occurrence's order and dedupes in constant time (includes() was quadratic).
  const warned = new Set<string>();
  if (!isActive(e)) return { desired, warnings: [] };
  const warn = (w: string) => void warned.add(w);
  if (e.updateMode === "additive") {
    for (const [k, v] of current.roles) desired.roles.set(k, v);
    for (const [k, v] of current.groups) desired.groups.set(k, v);
    for (const [k, v] of current.sites) desired.sites.set(k, v);
  }
  for (const name of e.roles ?? []) {
    const id = refs.rolesByName.get(name);
    if (id) desired.roles.set(id, name);
    else warn(WARNINGS.roleNotFound(name));
  }
  for (const g of e.groups ?? []) {
    const id =
      (g.externalGroupId !== undefined ? refs.groupsByExternalId.get(g.externalGroupId) : undefined) ??
      (g.groupName !== undefined ? refs.groupsByName.get(g.groupName) : undefined);
    if (id) desired.groups.set(id, g.role ?? null);
    else warn(WARNINGS.groupNotFound(g.groupName ?? g.externalGroupId ?? ""));
  }
  const givenValidSites: { id: string; role: string | null }[] = [];
  for (const s of e.sites ?? []) {
    const id = s.id.toLowerCase();
    if (refs.sites.has(id)) {
      desired.sites.set(id, s.role ?? null);
      givenValidSites.push({ id, role: s.role ?? null });
    } else warn(WARNINGS.siteNotFound(s.id));
  }
  checkSiteManager(e, current, desired, givenValidSites);
  return { desired, warnings: [...warned] };
}

/**
 * Rule 8: (a) the site_manager role needs a site: none given (and, when additive,
 * none held); (b) a site-level site_manager needs site_manager among the roles;
 * (c) site_manager left without any site once missing sites are skipped.
 */
function checkSiteManager(e: SyncEmployee, current: Assignments, desired: Assignments, givenValidSites: { role: string | null }[]) {
  const hasSiteManager = [...desired.roles.values()].includes(SITE_MANAGER);
  if (givenValidSites.some((s) => s.role === SITE_MANAGER) && !hasSiteManager) throw new EmployeeRuleError(RULE_MESSAGES.siteManagerSiteLevelWithoutRole);
  if (!hasSiteManager) return;
  const noneGiven = (e.sites ?? []).length === 0;
  if (noneGiven && (e.updateMode === "replace" || current.sites.size === 0)) throw new EmployeeRuleError(RULE_MESSAGES.siteManagerWithoutSite);
  if (desired.sites.size === 0) throw new EmployeeRuleError(RULE_MESSAGES.siteManagerNoSiteLeft);
}

export interface AssignmentDiff {
  addRoles: string[];
  removeRoles: string[];
  /** Group id -> member role: new memberships and changed member roles. */
  putGroups: Map<string, string | null>;
  removeGroups: string[];
  putSites: Map<string, string | null>;
  removeSites: string[];
}

/** The writes that turn `current` into `desired`; empty when they are equal. */
export function diffAssignments(current: Assignments, desired: Assignments): AssignmentDiff & { changed: boolean } {
  const put = (cur: Map<string, string | null>, want: Map<string, string | null>) => new Map([...want].filter(([k, v]) => !cur.has(k) || cur.get(k) !== v));
  const gone = <V>(cur: Map<string, V>, want: Map<string, V>) => [...cur.keys()].filter((k) => !want.has(k));
  const diff: AssignmentDiff = {
    addRoles: [...desired.roles.keys()].filter((k) => !current.roles.has(k)),
    removeRoles: gone(current.roles, desired.roles),
    putGroups: put(current.groups, desired.groups),
    removeGroups: gone(current.groups, desired.groups),
    putSites: put(current.sites, desired.sites),
    removeSites: gone(current.sites, desired.sites),
  };
  const changed =
    diff.addRoles.length + diff.removeRoles.length + diff.putGroups.size + diff.removeGroups.length + diff.putSites.size + diff.removeSites.length > 0;
  return { ...diff, changed };
}

/**
 * Chains of a batch: employees that share an externalEmployeeId or an e-mail (case
 * aside), directly or through others, must apply one after another in request order,
 * so duplicates and e-mail conflicts inside a batch resolve the same way every time.
 * Returns each employee's chain key (the externalEmployeeId of its chain's first member).
 */
export function chainKeys(batch: { externalEmployeeId: string; email?: string | null }[]): string[] {
  const parent = batch.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const firstBy = new Map<string, number>();
  batch.forEach((e, i) => {
    for (const k of [`id:${e.externalEmployeeId}`, e.email ? `email:${e.email.toLowerCase()}` : null]) {
      if (k === null) continue;
      const seen = firstBy.get(k);
      if (seen === undefined) firstBy.set(k, i);
      else union(seen, i);
    }
  });
  return batch.map((_, i) => batch[find(i)]!.externalEmployeeId);
}
