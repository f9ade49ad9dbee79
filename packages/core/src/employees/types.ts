/** The domain types of the employee sync: the record a request sends, its result, the stored fields, assignments. */

/**
 * An employee of a sync request after validation (the shape of `EmployeeInput` in
 * @insp/contracts, which the API checks it against). Absent fields keep the stored
 * value; null clears it.
 */
export type EmployeeStatus = "ACTIVE" | "INACTIVE" | "TERMINATED";
type UpdateMode = "replace" | "additive";

export interface SyncEmployee {
  externalEmployeeId: string;
  status: EmployeeStatus;
  firstName?: string | null;
  lastName?: string | null;
  displayName?: string | null;
  email?: string | null;
  phone?: string | null;
  jobTitle?: string | null;
  department?: string | null;
  supervisor?: { name?: string; email?: string } | null;
  hireDate?: string | null;
  terminationDate?: string | null;
  metadata?: Record<string, unknown> | null;
  roles?: string[];
  groups?: { groupName?: string; externalGroupId?: string; role?: string }[];
  sites?: { id: string; role?: string }[];
  userAccount?: { username?: string; forcePasswordReset: boolean; sendWelcomeEmail: boolean };
  updateMode: UpdateMode;
  /**
   * Internal, never from a request (the contract drops unknown fields): a snapshot session's
   * deactivation applies only while the employee is still ACTIVE and unwritten since the commit
   * decided it (a Postgres timestamp), however late its job runs.
   */
  onlyIfActiveAndUnchangedSince?: string;
}

/** One entry of `results` (spec: Employee sync request and result). */
export interface SyncResult {
  externalEmployeeId: string;
  status: "CREATED" | "UPDATED";
  employeeId: string | null;
  userId: string | null;
  warnings: string[];
}

export interface SyncError {
  externalEmployeeId: string | null;
  message: string;
}

/** The columns of `employees` that a sync writes. */
export interface EmployeeFields {
  status: EmployeeStatus;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  email: string | null;
  phone: string | null;
  jobTitle: string | null;
  department: string | null;
  supervisor: { name?: string; email?: string } | null;
  hireDate: string | null;
  terminationDate: string | null;
  metadata: Record<string, unknown> | null;
}

/** Assignments by id: role id -> role name, group id -> member role, site id -> site role. */
export interface Assignments {
  roles: Map<string, string>;
  groups: Map<string, string | null>;
  sites: Map<string, string | null>;
}

/** Organization reference data found for the names and ids an employee mentions. */
export interface ResolvedRefs {
  rolesByName: Map<string, string>;
  groupsByName: Map<string, string>;
  groupsByExternalId: Map<string, string>;
  /** Site ids (UUIDs) that exist in the organization. */
  sites: Set<string>;
}
