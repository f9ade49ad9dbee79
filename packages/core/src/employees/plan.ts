import { randomUUID } from "node:crypto";
import { UNUSABLE_PASSWORD } from "../auth/passwords.ts";
import type { WelcomeMailData } from "../mail/outbox.ts";
import {
  EmployeeRuleError,
  RULE_MESSAGES,
  diffAssignments,
  isActive,
  mergeFields,
  planAssignments,
  usernameTakenMessage,
  type AssignmentDiff,
} from "./rules.ts";
import type { Assignments, EmployeeFields, EmployeeStatus, ResolvedRefs, SyncEmployee, SyncResult } from "./types.ts";

/**
 * The planner of one employee's sync, pure: from what the one read found (EmployeeContext,
 * read by sql/read-context.ts) the rules decide every write (EmployeeWrites, written in one
 * statement by sql/write-employee.ts), the result and the mails. No I/O: run.ts does the
 * reading and writing around it, and the planner is tested without a database.
 */

/** What the read found: the employee as stored, who else holds its e-mail, the organization's references. */
export interface EmployeeContext {
  state: EmployeeState | null;
  /** Who else uses the e-mail the employee ends with (and the account's username); null without an e-mail. */
  holders: EmailHolders | null;
  refs: ResolvedRefs;
}

interface LinkedUser {
  id: string;
  email: string;
  username: string;
  name: string | null;
  disabled: boolean;
}

export interface EmployeeState {
  id: string;
  fields: EmployeeFields;
  userId: string | null;
  user: LinkedUser | null;
  assignments: Assignments;
  /** Not written since the record's `onlyIfActiveAndUnchangedSince` (true when it has none). */
  unchanged: boolean;
}

export interface EmailHolders {
  /** Another employee of the organization already has this e-mail. */
  otherEmployee: boolean;
  /** The user with this e-mail (any organization), the employee linked to it, and whether it is an administrator by flag. */
  userByEmail: { id: string; organizationId: string; employeeId: string | null; isAdmin: boolean } | null;
  /** A user of the organization (other than the employee's own) with this username. */
  usernameTaken: boolean;
}

export const emptyAssignments = (): Assignments => ({ roles: new Map(), groups: new Map(), sites: new Map() });

/** What one employee's transaction writes, as planEmployee decided (written by sql/write-employee.ts). */
export interface EmployeeWrites {
  organizationId: string;
  requestId: string;
  employeeId: string;
  /** Insert (new employee) or update (changed) the employee row; null: it stays as it is. */
  employee: {
    insert: boolean;
    externalEmployeeId: string;
    fields: EmployeeFields;
    userId: string | null;
    change: EmployeeChange;
    changedFields: string[];
  } | null;
  user: UserWrite | null;
  diff: AssignmentDiff;
  mail: { id: string; userId: string; to: string; data: unknown } | null;
  /** The item's outcome, written in the same statement; its successor (same chain, next in request order) is returned. */
  item: { id: string; requestId: string; chainKey: string | null; idx: number; result: unknown } | null;
}

/** The change-log entry of an employee write (feeds): created, deactivated (ACTIVE to INACTIVE or TERMINATED), else updated. */
export type EmployeeChange = "created" | "updated" | "deactivated";

type UserWrite =
  | { kind: "create"; id: string; email: string; username: string; name: string | null; forcePasswordReset: boolean; passwordHash: string | null }
  | { kind: "update"; id: string; email: string; username: string; name: string | null; enable: boolean }
  | { kind: "adopt"; id: string; email: string; username: string; name: string | null }
  | { kind: "disable" | "enable"; id: string };

export interface SyncContext {
  organizationId: string;
  requestId: string;
}

export interface EmployeeSyncOutcome {
  result: SyncResult;
  createdEmployee: boolean;
  createdUser: boolean;
  /** mail_outbox rows written in this transaction: enqueue their jobs after commit. */
  outboxIds: string[];
}

const USER_HAS_OTHER_ACCOUNT = "User with that e-mail already exists; the employee is already linked to a different user account";

interface AccountValues {
  email: string;
  username: string;
  name: string | null;
}

/**
 * The rules applied to what was read (spec: Processing rules 1 to 9): the writes, the result
 * and the mails. Throws EmployeeRuleError when a rule fails; the caller rolls back.
 */
export function planEmployee(ctx: SyncContext, e: SyncEmployee, read: EmployeeContext): { writes: Omit<EmployeeWrites, "item">; outcome: EmployeeSyncOutcome } {
  const org = ctx.organizationId;
  const { state, holders, refs } = read;
  if (e.onlyIfActiveAndUnchangedSince !== undefined) {
    if (!state) throw new EmployeeRuleError(LEAVER_GONE);
    if (state.fields.status !== "ACTIVE" || !state.unchanged) return leftAsItIs(ctx, e, state);
  }
  const { fields, changed: fieldsChanged, changedFields } = mergeFields(state?.fields ?? null, e);
  const manageAccount = isActive(e) && e.userAccount !== undefined;
  const account: AccountValues | null =
    manageAccount && fields.email ? { email: fields.email, username: e.userAccount?.username ?? fields.email, name: fields.displayName } : null;
  const emailChanged = (fields.email ?? "").toLowerCase() !== (state?.fields.email ?? "").toLowerCase();
  if ((emailChanged || account) && holders?.otherEmployee) throw new EmployeeRuleError(RULE_MESSAGES.emailLinkedToOtherEmployee);
  if (holders && account) checkAccountConflicts(holders, state, org, account);
  const current = state?.assignments ?? emptyAssignments();
  const { desired, warnings } = planAssignments(e, current, refs);
  const diff = diffAssignments(current, desired);

  const { userId, createdUser, user } = planAccount(e, state, account, holders);
  const employeeId = state?.id ?? randomUUID();
  const employeeWrite =
    !state || fieldsChanged || diff.changed || userId !== state.userId
      ? {
          insert: !state,
          externalEmployeeId: e.externalEmployeeId,
          fields,
          userId,
          change: employeeChange(state?.fields.status ?? null, fields.status),
          changedFields: auditedFields(changedFields, diff, user !== null || userId !== (state?.userId ?? null)),
        }
      : null;
  const outboxIds: string[] = [];
  let mail: EmployeeWrites["mail"] = null;
  if (createdUser && account && userId && e.userAccount?.sendWelcomeEmail) {
    const data: WelcomeMailData = { displayName: fields.displayName, username: account.username, includeTemporaryPassword: e.userAccount.forcePasswordReset };
    mail = { id: randomUUID(), userId, to: account.email, data };
    outboxIds.push(mail.id);
  }
  const result: SyncResult = { externalEmployeeId: e.externalEmployeeId, status: state ? "UPDATED" : "CREATED", employeeId, userId, warnings };
  return {
    writes: { organizationId: org, requestId: ctx.requestId, employeeId, employee: employeeWrite, user, diff, mail },
    outcome: { result, createdEmployee: !state, createdUser, outboxIds },
  };
}

const LEAVER_GONE = "The employee no longer exists; nothing to deactivate";
const LEAVER_CHANGED = "Left as it is: the employee was no longer ACTIVE, or was changed after the session's commit";

/** A session's deactivation that no longer applies: nothing written, said in a warning. */
function leftAsItIs(ctx: SyncContext, e: SyncEmployee, state: EmployeeState): ReturnType<typeof planEmployee> {
  const none = diffAssignments(state.assignments, state.assignments);
  const result: SyncResult = {
    externalEmployeeId: e.externalEmployeeId,
    status: "UPDATED",
    employeeId: state.id,
    userId: state.userId,
    warnings: [LEAVER_CHANGED],
  };
  return {
    writes: { organizationId: ctx.organizationId, requestId: ctx.requestId, employeeId: state.id, employee: null, user: null, diff: none, mail: null },
    outcome: { result, createdEmployee: false, createdUser: false, outboxIds: [] },
  };
}

/** The field names an employee's audit entry lists: its own fields, then roles, groups, sites and its user account. */
function auditedFields(fields: string[], diff: ReturnType<typeof diffAssignments>, account: boolean): string[] {
  const names = [...fields];
  if (diff.addRoles.length || diff.removeRoles.length) names.push("roles");
  if (diff.putGroups.size || diff.removeGroups.length) names.push("groups");
  if (diff.putSites.size || diff.removeSites.length) names.push("sites");
  if (account) names.push("userAccount");
  return names;
}

/** What the change log says of an employee write: created, deactivated when it leaves ACTIVE, else updated. */
export function employeeChange(before: EmployeeStatus | null, after: EmployeeStatus): EmployeeChange {
  if (before === null) return "created";
  return before === "ACTIVE" && after !== "ACTIVE" ? "deactivated" : "updated";
}

/** Rule 9 and the spec's two e-mail messages: users are unique by e-mail across organizations. */
function checkAccountConflicts(holders: EmailHolders, state: EmployeeState | null, org: string, account: AccountValues) {
  const u = holders.userByEmail;
  if (u && u.organizationId !== org) throw new EmployeeRuleError(RULE_MESSAGES.emailInOtherOrganization);
  if (u && u.employeeId && u.employeeId !== state?.id) throw new EmployeeRuleError(RULE_MESSAGES.emailLinkedToOtherEmployee);
  if (u && state?.userId && u.id !== state.userId) throw new EmployeeRuleError(USER_HAS_OTHER_ACCOUNT);
  // Left: an unlinked account of the organization, which planAccount would adopt.
  if (u && u.id !== state?.userId && u.isAdmin) throw new EmployeeRuleError(RULE_MESSAGES.emailOfAdministrator);
  if (holders.usernameTaken) throw new EmployeeRuleError(usernameTakenMessage(account.username));
}

/**
 * ACTIVE with userAccount: update the linked account (only when something differs), adopt an
 * unlinked one with the e-mail (never an administrator's: checkAccountConflicts), or create
 * one. Otherwise only the enabled state follows the status. Accounts are never created for
 * INACTIVE or TERMINATED employees. The sync enables only what it disabled: an account is
 * enabled again when its employee comes back to ACTIVE; an account disabled by other means (or
 * adopted while disabled) stays disabled. A new account with forcePasswordReset has a password
 * nobody knows: the welcome mail job sets a temporary one at delivery (mail/deliver.ts).
 */
function planAccount(
  e: SyncEmployee,
  state: EmployeeState | null,
  account: AccountValues | null,
  holders: EmailHolders | null,
): { userId: string | null; createdUser: boolean; user: UserWrite | null } {
  const reactivated = isActive(e) && state !== null && !isActive(state.fields);
  if (account) {
    const own = state?.user;
    if (own) {
      const reEnable = reactivated && own.disabled;
      const same = own.email === account.email && own.username === account.username && own.name === account.name;
      return { userId: own.id, createdUser: false, user: same && !reEnable ? null : { kind: "update", id: own.id, ...account, enable: reEnable } };
    }
    const existing = holders?.userByEmail;
    if (existing) return { userId: existing.id, createdUser: false, user: { kind: "adopt", id: existing.id, ...account } };
    const userId = randomUUID();
    const force = e.userAccount?.forcePasswordReset ?? false;
    return {
      userId,
      createdUser: true,
      user: { kind: "create", id: userId, ...account, forcePasswordReset: force, passwordHash: force ? UNUSABLE_PASSWORD : null },
    };
  }
  const user = state?.user;
  if (user && !isActive(e) && !user.disabled) return { userId: state!.userId, createdUser: false, user: { kind: "disable", id: user.id } };
  if (user && reactivated && user.disabled) return { userId: state!.userId, createdUser: false, user: { kind: "enable", id: user.id } };
  return { userId: state?.userId ?? null, createdUser: false, user: null };
}
