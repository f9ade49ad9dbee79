/** The public names of the employee sync: what the api, worker and admin apps use. Files inside import each other directly. */
export type { SyncEmployee } from "./types.ts";
export { chainKeys } from "./rules.ts";
export { employeeChange } from "./plan.ts";
export { completeFinishedSyncRequests, createSyncRequest, loadSyncStatus, type NewItem } from "./requests.ts";
export { runSyncItem } from "./run.ts";
export { getEmployee, listEmployees } from "./read.ts";
export { eraseEmployee } from "./erase.ts";
export { deleteOldSyncRequests, requeueStalledSyncItems } from "./sweep.ts";
export { submitSync, type SyncOutcome, type SyncServices } from "./submit.ts";
export { expireSessions, getSession, listSessions, openSession } from "./sessions.ts";
export { approveSession, cancelSession, commitSession, type CommitOutcome, type DeletionGuard } from "./commit.ts";
