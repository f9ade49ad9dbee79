import { randomUUID } from "node:crypto";
import type { Tx } from "@insp/db";
import { insertWelcomeMail } from "../mail/outbox.ts";
import { adoptUserAccount, createUserAccount, setAccountDisabled, updateUserAccount, type AccountValues } from "./accounts.ts";
import { EmployeeRuleError, RULE_MESSAGES, diffAssignments, isActive, mergeFields, planAssignments, referencesOf, usernameTakenMessage } from "./rules.ts";
import { applyAssignmentDiff, emptyAssignments, findEmailHolders, insertEmployee, loadEmployeeState, lockEmployee, resolveRefs, updateEmployee, type EmailHolders, type EmployeeState } from "./store.ts";
import type { SyncEmployee, SyncResult } from "./types.ts";

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

export interface SyncOptions {
  /** The caller already holds the employee's locks (runSyncItem takes them with the item). */
  locked?: boolean;
  /** A write of the caller's (the item's outcome), pipelined with the employee's writes. */
  alsoWrite?: (result: SyncResult) => PromiseLike<unknown>;
}

/**
 * One employee, inside the caller's transaction (spec: Processing rules 1 to 9).
 * Serialized per (organization, externalEmployeeId) and per e-mail with advisory
 * locks taken first, in sorted order, so concurrent batches and replicas neither
 * duplicate employees or users nor deadlock (PITFALLS.md). A business-rule failure
 * throws EmployeeRuleError; the caller rolls the transaction back.
 */
export async function syncEmployee(tx: Tx, ctx: SyncContext, e: SyncEmployee, opts: SyncOptions = {}): Promise<EmployeeSyncOutcome> {
  const org = ctx.organizationId;
  if (!opts.locked) await lockEmployee(tx, org, e.externalEmployeeId, e.email);
  const state = await loadEmployeeState(tx, org, e.externalEmployeeId);
  const { fields, changed: fieldsChanged } = mergeFields(state?.fields ?? null, e);

  const manageAccount = isActive(e) && e.userAccount !== undefined;
  const account: AccountValues | null = manageAccount && fields.email ? { email: fields.email, username: e.userAccount?.username ?? fields.email, name: fields.displayName } : null;
  const emailChanged = (fields.email ?? "").toLowerCase() !== (state?.fields.email ?? "").toLowerCase();
  const current = state?.assignments ?? emptyAssignments();
  // Independent reads, pipelined on the transaction's connection (one round trip).
  const [holders, refs] = await Promise.all([
    fields.email && (emailChanged || account)
      ? findEmailHolders(tx, { organizationId: org, externalEmployeeId: e.externalEmployeeId, email: fields.email, username: account?.username ?? null, ownUserId: state?.userId ?? null })
      : null,
    resolveRefs(tx, org, referencesOf(e)),
  ]);
  if (holders?.otherEmployee) throw new EmployeeRuleError(RULE_MESSAGES.emailLinkedToOtherEmployee);
  if (holders && account) checkAccountConflicts(holders, state, org, account);
  const { desired, warnings } = planAssignments(e, current, refs);
  const diff = diffAssignments(current, desired);

  // Every check has passed: the writes, with ids made here, issued together. postgres.js
  // sends them in the order issued on the transaction's connection (pipelining), so
  // foreign keys (user, employee, assignments, outbox) are satisfied.
  const writes: PromiseLike<unknown>[] = [];
  const { userId, createdUser } = planAccount(tx, org, e, state, account, holders, writes);
  const employeeId = state?.id ?? randomUUID();
  if (!state) writes.push(insertEmployee(tx, org, employeeId, e.externalEmployeeId, fields, userId, ctx.requestId));
  else if (fieldsChanged || diff.changed || userId !== state.userId) writes.push(updateEmployee(tx, org, employeeId, fields, userId, ctx.requestId));
  writes.push(applyAssignmentDiff(tx, org, employeeId, diff));
  const outboxIds: string[] = [];
  if (createdUser && account && userId && e.userAccount?.sendWelcomeEmail) {
    const data = { displayName: fields.displayName, username: account.username, includeTemporaryPassword: e.userAccount.forcePasswordReset };
    const outboxId = randomUUID();
    outboxIds.push(outboxId);
    writes.push(insertWelcomeMail(tx, { id: outboxId, organizationId: org, userId, to: account.email, data }));
  }
  const result: SyncResult = { externalEmployeeId: e.externalEmployeeId, status: state ? "UPDATED" : "CREATED", employeeId, userId, warnings };
  if (opts.alsoWrite) writes.push(opts.alsoWrite(result));
  await Promise.all(writes);
  return {
    result,
    createdEmployee: !state,
    createdUser,
    outboxIds,
  };
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
 * ACTIVE with userAccount: update the linked account, adopt an unlinked one with the
 * e-mail (never an administrator's: checkAccountConflicts), or create one. Otherwise only
 * the enabled state follows the status. Accounts are never created for INACTIVE or
 * TERMINATED employees. The sync enables only what it disabled: an account is enabled
 * again when its employee comes back to ACTIVE; an account disabled by other means (or
 * adopted while disabled) stays disabled. Pushes its write.
 */
function planAccount(tx: Tx, org: string, e: SyncEmployee, state: EmployeeState | null, account: AccountValues | null, holders: EmailHolders | null, writes: PromiseLike<unknown>[]) {
  const reactivated = isActive(e) && state !== null && !isActive(state.fields);
  if (account) {
    if (state?.user) {
      writes.push(updateUserAccount(tx, org, state.user, account, reactivated));
      return { userId: state.user.id, createdUser: false };
    }
    const existing = holders?.userByEmail;
    if (existing) {
      writes.push(adoptUserAccount(tx, org, existing.id, account));
      return { userId: existing.id, createdUser: false };
    }
    const userId = randomUUID();
    writes.push(createUserAccount(tx, org, userId, account, e.userAccount?.forcePasswordReset ?? false));
    return { userId, createdUser: true };
  }
  const user = state?.user;
  if (user && !isActive(e) && !user.disabled) writes.push(setAccountDisabled(tx, org, user.id, true));
  else if (user && reactivated && user.disabled) writes.push(setAccountDisabled(tx, org, user.id, false));
  return { userId: state?.userId ?? null, createdUser: false };
}
