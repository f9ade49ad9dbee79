import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "@insp/db";
import { answerMedia, inspectionAnswers, inspectionRevisions } from "@insp/db/schema";
import { insertInspectionActions } from "../actions/index.ts";
import type { AuditContext } from "../audit/index.ts";
import type { RevisionWrites } from "./plan.ts";

/**
 * Applies a planned revision inside the caller's transaction, for the import (revision 1) and for
 * every PATCH: ends the answers it replaces or removes, inserts the new answers and their image
 * links, flips the flags that moved, raises the answers' actions (each with its change and audit
 * entry) and writes the revision row. The inspection row and its own events stay with the caller.
 */
export async function writeRevision(tx: Tx, organizationId: string, inspectionId: string, w: RevisionWrites, actor: AuditContext): Promise<void> {
  const current = and(eq(inspectionAnswers.inspectionId, inspectionId), isNull(inspectionAnswers.revisionTo));
  if (w.close.length)
    await tx
      .update(inspectionAnswers)
      .set({ revisionTo: w.revision })
      .where(and(current, inArray(inspectionAnswers.questionId, w.close)));
  const rows = w.insert.map((a) => ({
    row: { ...a.values, flagged: a.flagged, id: randomUUID(), organizationId, inspectionId, position: a.position, revisionFrom: w.revision },
    mediaIds: a.mediaIds,
  }));
  // In statements of at most 1,000 answers and 5,000 links: one may carry at most 65,535 parameters (16 per answer).
  for (const batch of chunks(rows, 1000)) await tx.insert(inspectionAnswers).values(batch.map((r) => r.row));
  const links = rows.flatMap((r) => r.mediaIds.map((mediaId, position) => ({ answerId: r.row.id, mediaId, organizationId, position })));
  for (const batch of chunks(links, 5000)) await tx.insert(answerMedia).values(batch);
  for (const batch of chunks(w.reflag, 1000)) {
    await tx
      .update(inspectionAnswers)
      .set({ flagged: sql`not ${inspectionAnswers.flagged}` })
      .where(and(current, inArray(inspectionAnswers.questionId, batch)));
  }
  if (w.actions.length) await insertInspectionActions(tx, organizationId, actor, inspectionId, w.actions);
  await tx.insert(inspectionRevisions).values({
    organizationId,
    inspectionId,
    revision: w.revision,
    status: w.status,
    completedAt: w.completedAt,
    actorType: actor.actorType,
    actorId: actor.actorId,
    requestId: actor.requestId,
    changes: w.changes,
  });
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
