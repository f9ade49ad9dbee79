import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionRevisions, inspections } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";

export interface InspectionRevision {
  revision: number;
  createdAt: string;
  status: string;
  completedAt: string | null;
  actor: { type: string; id: string | null };
  requestId: string | null;
  changes: { added: string[]; changed: string[]; removed: string[]; status?: { from: string; to: string } };
}

/** GET /api/inspections/{id}/revisions: every revision, oldest first (revision 1 is the import). */
export async function listInspectionRevisions(db: DbOrTx, organizationId: string, id: string): Promise<InspectionRevision[]> {
  await currentRevision(db, organizationId, id);
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
    changes: r.changes as InspectionRevision["changes"],
  }));
}

/** The inspection's current revision (its ETag); 404 for an unknown, malformed or another organization's id. */
export async function currentRevision(db: DbOrTx, organizationId: string, id: string): Promise<number> {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [row] = await db
    .select({ revision: inspections.revision })
    .from(inspections)
    .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, id)));
  if (!row) throw notFound(`Inspection ${id} not found`);
  return row.revision;
}
