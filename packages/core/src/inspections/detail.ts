import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@insp/db";
import { answerMedia, inspectionAnswers, media, templateQuestions } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";
import type { MediaStore } from "./media-store.ts";
import { answerColumns, selectSummaries, toAnswer, toSummary } from "./summary.ts";

/**
 * One inspection with every answer (in import order), the question it answers, and its images
 * as `data:<mime>;base64,...` URLs with their dimensions. Unknown, malformed or another
 * organization's id: 404.
 */
export async function getInspectionDetail(db: Db, store: MediaStore, organizationId: string, id: string, opts: { images: "base64" | "url" } = { images: "base64" }) {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [row] = await selectSummaries(db.$client, organizationId, [id]);
  if (!row) throw notFound(`Inspection ${id} not found`);
  const answers = await db
    .select({ ...answerColumns, questionText: templateQuestions.text })
    .from(inspectionAnswers)
    .innerJoin(templateQuestions, and(eq(templateQuestions.id, inspectionAnswers.questionId), eq(templateQuestions.organizationId, organizationId)))
    .where(and(eq(inspectionAnswers.organizationId, organizationId), eq(inspectionAnswers.inspectionId, id)))
    .orderBy(asc(inspectionAnswers.position));
  const links = answers.length
    ? await db
        .select({ answerId: answerMedia.answerId, mediaId: media.id, mime: media.mimeType, width: media.width, height: media.height, bytes: media.byteSize, storageKey: media.storageKey })
        .from(answerMedia)
        .innerJoin(media, and(eq(media.id, answerMedia.mediaId), eq(media.organizationId, organizationId)))
        .where(and(eq(answerMedia.organizationId, organizationId), inArray(answerMedia.answerId, answers.map((a) => a.id))))
        .orderBy(asc(answerMedia.answerId), asc(answerMedia.position))
    : [];
  // One file at a time: each image is read, encoded and dropped before the next. With
  // images=url nothing is read: each image is a reference to GET /api/media/{id}.
  type Image = { imgBlobSrc: string; imgDimension?: string } | { mediaId: string; url: string; mimeType: string; imgDimension?: string; bytes: number };
  const images = new Map<string, Image[]>();
  for (const l of links) {
    const dimension = l.width && l.height ? { imgDimension: `${l.width}x${l.height}` } : {};
    const image: Image =
      opts.images === "url"
        ? { mediaId: l.mediaId, url: `/api/media/${l.mediaId}`, mimeType: l.mime, ...dimension, bytes: l.bytes }
        : { imgBlobSrc: `data:${l.mime};base64,${(await store.get(l.storageKey)).toString("base64")}`, ...dimension };
    const list = images.get(l.answerId);
    if (list) list.push(image);
    else images.set(l.answerId, [image]);
  }
  return {
    ...toSummary(row),
    answers: answers.map((a) => ({ ...toAnswer(a), question: { id: a.questionId, text: a.questionText }, images: images.get(a.id) ?? [] })),
  };
}
