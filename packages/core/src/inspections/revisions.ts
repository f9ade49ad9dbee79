import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionRevisions, inspections } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";
import type { RevisionChanges } from "./plan.ts";
import { actionsStamp, referencesFingerprint, selectSummaries, toSummary } from "./summary.ts";

export interface InspectionRevision {
  revision: number;
  createdAt: string;
  status: string;
  completedAt: string | null;
  actor: { type: string; id: string | null };
  requestId: string | null;
  changes: RevisionChanges;
}

/** GET /api/inspections/{id}/revisions: every revision, oldest first (revision 1 is the import). */
export async function listInspectionRevisions(db: DbOrTx, organizationId: string, id: string): Promise<InspectionRevision[]> {
  await assertInspection(db, organizationId, id);
  const rows = await db
    .select()
    .from(inspectionRevisions)
    .where(and(eq(inspectionRevisions.organizationId, organizationId), eq(inspectionRevisions.inspectionId, id)))
    .orderBy(asc(inspectionRevisions.revision));
  return rows.map((r) => ({
    revision: r.revision,
    createdAt: r.createdAt.toISOString(),
    status: r.status,
    completedAt: r.completedAt?.toISOString() ?? null,
    actor: { type: r.actorType, id: r.actorId },
    requestId: r.requestId,
    changes: r.changes as RevisionChanges,
  }));
}

/** The inspection's current revision and references fingerprint (its ETag); 404 for an unknown, malformed or another organization's id. */
export async function currentValidator(
  db: { $client: Parameters<typeof selectSummaries>[0] },
  organizationId: string,
  id: string,
): Promise<{ revision: number; fingerprint: string }> {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [row] = await selectSummaries(db.$client, organizationId, [id]);
  if (!row) throw notFound(`Inspection ${id} not found`);
  return { revision: row.revision, fingerprint: referencesFingerprint(toSummary(row), await actionsStamp(db.$client, organizationId, id)) };
}

/** 404 unless the inspection is the organization's. */
async function assertInspection(db: DbOrTx, organizationId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [row] = await db
    .select({ id: inspections.id })
    .from(inspections)
    .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, id)));
  if (!row) throw notFound(`Inspection ${id} not found`);
}
