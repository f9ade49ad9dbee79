import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@insp/db";
import { media } from "@insp/db/schema";
import { getInspectionDetail, type InspectionDetail } from "../inspections/detail.ts";
import { getTemplateDetail } from "../templates/detail.ts";
import type { TemplateDetail } from "../templates/types.ts";
import { reviewStateOf, revisionOfCacheKey } from "./request.ts";
import { PermanentReportError } from "./run.ts";

/** What a report prints: the inspection (images as media ids), its template version, its review state. */
export interface ReportContent {
  detail: InspectionDetail;
  template: TemplateDetail;
  reviewState: string;
  /** mediaId -> storage key of every image of the detail, read one at a time while rendering. */
  imageKeys: Map<string, string>;
}

/** The inspection as a report's cache key names it: that revision's answers, its template version, its review state. */
export async function loadReportContent(db: Db, organizationId: string, inspectionId: string, cacheKey: string): Promise<ReportContent> {
  const revision = revisionOfCacheKey(cacheKey);
  if (!Number.isInteger(revision)) throw new PermanentReportError("the report's cache key names no revision");
  const detail = await getInspectionDetail(db, organizationId, inspectionId, { images: "url", revision });
  const template = await getTemplateDetail(db, organizationId, detail.templateId, detail.templateVersion);
  const reviewState = await reviewStateOf(db, organizationId, inspectionId);
  const mediaIds = [...new Set(detail.answers.flatMap((a) => a.images.flatMap((i) => ("mediaId" in i ? [i.mediaId] : []))))];
  const keys = mediaIds.length
    ? await db
        .select({ id: media.id, storageKey: media.storageKey })
        .from(media)
        .where(and(eq(media.organizationId, organizationId), inArray(media.id, mediaIds)))
    : [];
  return { detail, template, reviewState, imageKeys: new Map(keys.map((k) => [k.id, k.storageKey])) };
}
