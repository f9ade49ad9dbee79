/** The public names of the employee sync: what the api, worker and admin apps use. Files inside import each other directly. */
export type { Assignments, ResolvedRefs, SyncEmployee } from "./types.ts";
export { RULE_MESSAGES, chainKeys, diffAssignments, generatedDisplayName, isActive, mergeFields, planAssignments } from "./rules.ts";
export { employeeChange } from "./plan.ts";
export { completeFinishedSyncRequests, createSyncRequest, loadSyncStatus, type NewItem } from "./requests.ts";
export type { Successor } from "./sql/items.ts";
export { runSyncItem } from "./run.ts";
export { getEmployee, listEmployees, type EmployeeView } from "./read.ts";
export { deleteOldSyncRequests, requeueStalledSyncItems } from "./sweep.ts";
export { submitSync, type SyncOutcome, type SyncServices, type ValidatedEntry } from "./submit.ts";
export { expireSessions, getSession, listSessions, openSession, type SessionScope, type SessionStatus } from "./sessions.ts";
export { approveSession, cancelSession, commitSession, type CommitOutcome, type DeletionGuard } from "./commit.ts";
