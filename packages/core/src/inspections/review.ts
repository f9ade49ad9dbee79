import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { inspectionComments, inspectionRevisions, inspections, users } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, forbidden, isUuid, notFound } from "../errors.ts";

/**
 * Review of inspections and their comments (docs/review.md). The states live once, in
 * @insp/contracts (REVIEW_STATES); this union is what core accepts.
 */
export type ReviewState = "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
/** States a review may only set with a comment saying why. */
const NEEDS_COMMENT: readonly ReviewState[] = ["HAS_ISSUES", "REJECTED"];

/** Who reviews: an API key (allowed to write inspections), or a user (admins only, never of an inspection they conducted). */
export type Reviewer = { kind: "apiKey" } | { kind: "user"; userId: string; isAdmin: boolean };

export interface CommentView {
  id: string;
  kind: "comment" | "review" | "system";
  /** For a review's comment: the state it set. */
  reviewState: ReviewState | null;
  body: string;
  author: { type: string; id: string | null; name: string | null };
  createdAt: string;
}

export interface ReviewOutcome {
  inspectionId: string;
  reviewState: ReviewState;
  previousState: ReviewState;
  comment: CommentView | null;
}

const commentColumns = {
  id: inspectionComments.id,
  kind: inspectionComments.kind,
  reviewState: inspectionComments.reviewState,
  body: inspectionComments.body,
  authorType: inspectionComments.authorType,
  authorId: inspectionComments.authorId,
  createdAt: inspectionComments.createdAt,
  userName: users.name,
};

type CommentRow = {
  id: string;
  kind: string;
  reviewState: string | null;
  body: string;
  authorType: string;
  authorId: string | null;
  createdAt: Date;
  userName: string | null;
};

function toComment(r: CommentRow): CommentView {
  return {
    id: r.id,
    kind: r.kind as CommentView["kind"],
    reviewState: r.reviewState as ReviewState | null,
    body: r.body,
    author: { type: r.authorType, id: r.authorId, name: r.userName },
    createdAt: r.createdAt.toISOString(),
  };
}

/** The inspection row (locked when in a transaction that asks), or 404. */
async function inspectionOf(db: DbOrTx, organizationId: string, id: string, lock: boolean) {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const q = db
    .select({ id: inspections.id, reviewState: inspections.reviewState, conductedBy: inspections.conductedBy })
    .from(inspections)
    .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, id)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound(`Inspection ${id} not found`);
  return row;
}

/** Whether a user imported the inspection or changed it (a revision names them as its actor). */
async function wroteARevision(tx: Tx, inspectionId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ revision: inspectionRevisions.revision })
    .from(inspectionRevisions)
    .where(and(eq(inspectionRevisions.inspectionId, inspectionId), eq(inspectionRevisions.actorType, "user"), eq(inspectionRevisions.actorId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Writes one comment in the caller's transaction and returns it as the API shows it. */
async function insertComment(
  tx: Tx,
  organizationId: string,
  inspectionId: string,
  c: { kind: CommentView["kind"]; body: string; reviewState?: ReviewState; authorType: string; authorId: string | null },
): Promise<CommentView> {
  const [row] = await tx
    .insert(inspectionComments)
    .values({ organizationId, inspectionId, kind: c.kind, body: c.body, reviewState: c.reviewState ?? null, authorType: c.authorType, authorId: c.authorId })
    .returning({ id: inspectionComments.id, createdAt: inspectionComments.createdAt });
  let userName: string | null = null;
  if (c.authorType === "user" && c.authorId && isUuid(c.authorId)) {
    const [u] = await tx
      .select({ name: users.name })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.id, c.authorId)));
    userName = u?.name ?? null;
  }
  return toComment({
    id: row!.id,
    kind: c.kind,
    reviewState: c.reviewState ?? null,
    body: c.body,
    authorType: c.authorType,
    authorId: c.authorId,
    createdAt: row!.createdAt,
    userName,
  });
}

/**
 * POST /api/inspections/{id}/review: sets the review state (any state to any other, or the same one
 * again with a new comment), with the comment when given (required for HAS_ISSUES and REJECTED), in
 * one transaction with its change event (webhook inspection.reviewed) and audit entry.
 */
export async function reviewInspection(
  db: Db,
  organizationId: string,
  id: string,
  input: { state: ReviewState; comment?: string | undefined },
  reviewer: Reviewer,
  audit: AuditContext,
): Promise<ReviewOutcome> {
  if (reviewer.kind === "user" && !reviewer.isAdmin) throw forbidden("Only admin users can review inspections");
  const comment = input.comment?.trim() ? input.comment.trim() : undefined;
  if (comment === undefined && NEEDS_COMMENT.includes(input.state))
    throw new AppError("invalid", `A review that sets ${input.state} needs a comment saying why`);
  return db.transaction(async (tx) => {
    const row = await inspectionOf(tx, organizationId, id, true);
    if (reviewer.kind === "user" && (row.conductedBy === reviewer.userId || (await wroteARevision(tx, id, reviewer.userId)))) {
      throw forbidden("You cannot review an inspection you conducted, imported or changed");
    }
    await tx
      .update(inspections)
      .set({ reviewState: input.state, updatedAt: sql`now()` })
      .where(eq(inspections.id, id));
    const view =
      comment === undefined
        ? null
        : await insertComment(tx, organizationId, id, {
            kind: "review",
            body: comment,
            reviewState: input.state,
            authorType: audit.actorType,
            authorId: audit.actorId,
          });
    await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "reviewed" });
    await recordAudit(tx, audit, {
      organizationId,
      action: "inspection.reviewed",
      resourceType: "inspection",
      resourceId: id,
      changedFields: ["reviewState", ...(view ? ["comment"] : [])],
    });
    return { inspectionId: id, reviewState: input.state, previousState: row.reviewState as ReviewState, comment: view };
  });
}

/** POST /api/inspections/{id}/comments: anyone who may read the inspection and write (see the route) adds one. */
export async function addComment(db: Db, organizationId: string, id: string, body: string, audit: AuditContext): Promise<CommentView> {
  return db.transaction(async (tx) => {
    await inspectionOf(tx, organizationId, id, false);
    const view = await insertComment(tx, organizationId, id, { kind: "comment", body: body.trim(), authorType: audit.actorType, authorId: audit.actorId });
    await recordAudit(tx, audit, { organizationId, action: "inspection.commented", resourceType: "inspection", resourceId: id, changedFields: ["comments"] });
    return view;
  });
}

/** GET /api/inspections/{id}/comments: oldest first (newest last), paged, with the total. */
export async function listComments(db: Db, organizationId: string, id: string, page: { limit: number; offset: number }) {
  await inspectionOf(db, organizationId, id, false);
  const where = and(eq(inspectionComments.organizationId, organizationId), eq(inspectionComments.inspectionId, id));
  const [rows, [count]] = await Promise.all([
    db
      .select(commentColumns)
      .from(inspectionComments)
      .leftJoin(
        users,
        and(eq(inspectionComments.authorType, "user"), eq(users.organizationId, organizationId), sql`${users.id}::text = ${inspectionComments.authorId}`),
      )
      .where(where)
      .orderBy(asc(inspectionComments.createdAt), asc(inspectionComments.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(inspectionComments)
      .where(where),
  ]);
  const total = count?.total ?? 0;
  return { comments: rows.map(toComment), pagination: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + rows.length < total } };
}

/**
 * In a PATCH's transaction: an APPROVED inspection that changes is no longer approved. Moves it back
 * to RECEIVED with a system comment saying so, its change event and audit entry.
 */
export async function reopenApprovedReview(tx: Tx, organizationId: string, id: string, revision: number, audit: AuditContext): Promise<void> {
  await tx
    .update(inspections)
    .set({ reviewState: "RECEIVED" })
    .where(and(eq(inspections.id, id), eq(inspections.reviewState, "APPROVED")));
  await insertComment(tx, organizationId, id, {
    kind: "system",
    body: `Changed after approval (revision ${revision}): the review state is back to RECEIVED`,
    reviewState: "RECEIVED",
    authorType: "system",
    authorId: null,
  });
  await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "reviewed" });
  await recordAudit(tx, audit, { organizationId, action: "inspection.reviewed", resourceType: "inspection", resourceId: id, changedFields: ["reviewState"] });
}
