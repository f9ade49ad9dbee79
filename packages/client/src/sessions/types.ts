import type { components } from "../generated/openapi.d.ts";

/** Snapshot sessions, from the generated OpenAPI types (src/generated/openapi.d.ts). */
export type Session = components["schemas"]["SyncSession"];
export type SessionScope = components["schemas"]["SyncSessionScope"];
export type SessionStatus = Session["status"];
export type DeactivatedEmployee = NonNullable<Session["deactivated"]>[number];
/** 200 to ?dryRun=true: what a commit would deactivate; the session stays open. */
export type CommitPreview = components["schemas"]["SyncSessionCommitPreview"];
/** A commit's answer: the session (committed, quarantined, or committing while its deactivations run), or a dry run's preview. */
export type CommitResult = Session | CommitPreview;
