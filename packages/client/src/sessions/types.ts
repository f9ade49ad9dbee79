/**
 * Snapshot sessions. The server side is being added, so these shapes are written by hand from
 * the agreed contract rather than generated; once the service's /openapi.json describes the
 * session endpoints, regenerate (npm run client:generate) and take them from there.
 */

export type SessionStatus = "open" | "committing" | "committed" | "quarantined" | "cancelled" | "expired";

export interface SessionScope {
  department?: string;
  siteId?: string;
  metadata?: { key: string; value: string };
}

export interface Session {
  sessionId: string;
  status: SessionStatus;
  scope?: SessionScope;
  createdAt?: string;
  expiresAt?: string;
}

export interface DeactivatedEmployee {
  employeeId: string;
  externalEmployeeId: string;
}

/** 200: the employees in scope that no batch of the session named are deactivated. */
export interface CommitCommitted {
  sessionId: string;
  status: "committed";
  deactivated: DeactivatedEmployee[];
  requestId?: string;
}

/** 202: the deletion guard holds the commit for an administrator's approval; nothing changed. */
export interface CommitQuarantined {
  sessionId: string;
  status: "quarantined";
  wouldDeactivate: DeactivatedEmployee[];
  threshold?: { percent: number; min: number };
  activeInScope?: number;
}

/** 200 to ?dryRun=true: what a commit would deactivate; the session stays open. */
export interface CommitDryRun {
  sessionId: string;
  status: "open";
  dryRun: true;
  wouldDeactivate: DeactivatedEmployee[];
}

export type CommitResult = CommitCommitted | CommitQuarantined | CommitDryRun;
