import { and, asc, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import type { Db } from "@insp/db";
import { answerMedia, inspectionAnswers, inspectionRevisions, inspections, media, templateQuestions } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";
import { InlineImage } from "../media/inline.ts";
import { actionsOfInspection } from "../actions/index.ts";
import { actionsStamp, answerColumns, referencesFingerprint, selectSummaries, toAnswer, toSummary } from "./summary.ts";

export type ImagesAs = "base64" | "url";

/** The answers of `revision`: revisionFrom <= revision < revisionTo (or revisionTo null). */
const answersAt = (revision: number) =>
  and(lte(inspectionAnswers.revisionFrom, revision), or(isNull(inspectionAnswers.revisionTo), gt(inspectionAnswers.revisionTo, revision)));

/**
 * One inspection with every answer (in order), the question it answers (as the inspection's
 * template version words it), and its images as `data:<mime>;base64,...` URLs to be streamed
 * (InlineImage) with their dimensions, or as references to GET /api/media/{id}. `revision`: as it was then (404 when it
 * has no such revision). Unknown, malformed or another organization's id: 404.
 */
export async function getInspectionDetail(db: Db, organizationId: string, id: string, opts: { images: ImagesAs; revision?: number } = { images: "base64" }) {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [row] = await selectSummaries(db.$client, organizationId, [id]);
  if (!row) throw notFound(`Inspection ${id} not found`);
  const summary = toSummary(row);
  let revision = row.revision;
  if (opts.revision !== undefined && opts.revision !== row.revision) {
    const [past] = await db
      .select({ status: inspectionRevisions.status, completedAt: inspectionRevisions.completedAt, createdAt: inspectionRevisions.createdAt })
      .from(inspectionRevisions)
      .where(
        and(eq(inspectionRevisions.organizationId, organizationId), eq(inspectionRevisions.inspectionId, id), eq(inspectionRevisions.revision, opts.revision)),
      );
    if (!past) throw notFound(`Inspection ${id} has no revision ${opts.revision}`);
    revision = opts.revision;
    Object.assign(summary, { status: past.status, completedAt: past.completedAt?.toISOString() ?? null, updatedAt: past.createdAt.toISOString() });
  }
  const answers = await db
    .select({ ...answerColumns, questionText: templateQuestions.text })
    .from(inspectionAnswers)
    .innerJoin(inspections, and(eq(inspections.id, inspectionAnswers.inspectionId), eq(inspections.organizationId, organizationId)))
    .innerJoin(
      templateQuestions,
      and(
        eq(templateQuestions.templateId, inspections.templateId),
        eq(templateQuestions.version, inspections.templateVersion),
        eq(templateQuestions.id, inspectionAnswers.questionId),
        eq(templateQuestions.organizationId, organizationId),
      ),
    )
    // The answers of the revision read above, even if a PATCH commits in between.
    .where(and(eq(inspectionAnswers.organizationId, organizationId), eq(inspectionAnswers.inspectionId, id), answersAt(revision)))
    .orderBy(asc(inspectionAnswers.position));
  const links = answers.length
    ? await db
        .select({
          answerId: answerMedia.answerId,
          mediaId: media.id,
          mime: media.mimeType,
          width: media.width,
          height: media.height,
          bytes: media.byteSize,
          storageKey: media.storageKey,
        })
        .from(answerMedia)
        .innerJoin(media, and(eq(media.id, answerMedia.mediaId), eq(media.organizationId, organizationId)))
        .where(
          and(
            eq(answerMedia.organizationId, organizationId),
            inArray(
              answerMedia.answerId,
              answers.map((a) => a.id),
            ),
          ),
        )
        .orderBy(asc(answerMedia.answerId), asc(answerMedia.position))
    : [];
  const actions = await actionsOfInspection(db, organizationId, id);
  // Nothing is read here: base64 images are InlineImages that the response writer streams from
  // the store one at a time; with images=url each is a reference to GET /api/media/{id}.
  type Image = { imgBlobSrc: InlineImage; imgDimension?: string } | { mediaId: string; url: string; mimeType: string; imgDimension?: string; bytes: number };
  const images = new Map<string, Image[]>();
  for (const l of links) {
    const dimension = l.width && l.height ? { imgDimension: `${l.width}x${l.height}` } : {};
    const image: Image =
      opts.images === "url"
        ? { mediaId: l.mediaId, url: `/api/media/${l.mediaId}`, mimeType: l.mime, ...dimension, bytes: l.bytes }
        : { imgBlobSrc: new InlineImage(l.storageKey, l.mime, l.bytes), ...dimension };
    const list = images.get(l.answerId);
    if (list) list.push(image);
    else images.set(l.answerId, [image]);
  }
  return {
    ...summary,
    revision,
    answers: answers.map((a) => ({
      ...toAnswer(a),
      question: { id: a.questionId, text: a.questionText },
      images: images.get(a.id) ?? [],
      actions: actions.get(a.questionId) ?? [],
    })),
  };
}
export type InspectionDetail = Awaited<ReturnType<typeof getInspectionDetail>>;

/** The validator of a detail for its ETag: its revision, and what it shows of other rows and of its corrective actions. */
export async function detailValidator(db: Db, organizationId: string, detail: InspectionDetail): Promise<{ revision: number; fingerprint: string }> {
  return { revision: detail.revision, fingerprint: referencesFingerprint(detail, await actionsStamp(db.$client, organizationId, detail.id)) };
}
