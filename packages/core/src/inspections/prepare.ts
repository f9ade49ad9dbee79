import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionImports, media } from "@insp/db/schema";
import { AppError, isUuid } from "../errors.ts";
import { decodeImage } from "./media.ts";
import { mediaKey, type MediaStore } from "./media-store.ts";
import type { ImportPayload } from "./payload.ts";
import { validateImport, type ImportInput } from "./validate.ts";
import type { AuditContext } from "../audit/index.ts";

export interface PrepareServices {
  db: DbOrTx;
  store: MediaStore;
  /** MEDIA_MAX_IMAGE_MB in bytes */
  maxImageBytes: number;
}

interface StoredImage {
  sha256: string;
  mime: string;
  width: number;
  height: number;
  byteSize: number;
}

export const VALIDATION_FAILED = "Inspection validation failed";

/**
 * The API half of an import: validates everything (all violations in one 400), decodes each
 * image once (decode, sniff, measure, hash, store, drop, then the next one), records the media
 * rows and writes the import request for the worker. Returns the import id.
 *
 * Images are written to the store only while no violation has been found, so a rejected
 * import normally leaves nothing behind; an image written before a later image of the same
 * request fails stays as an unreferenced, content-addressed file (harmless, reused on retry).
 */
export async function prepareImport(svc: PrepareServices, organizationId: string, input: ImportInput, audit: AuditContext): Promise<string> {
  const { template, asset, details } = await validateImport(svc.db, organizationId, input);
  const questionText = new Map(template.questions.map((q) => [q.id, q.text]));

  const images: StoredImage[][] = [];
  for (const a of input.answers) {
    const list: StoredImage[] = [];
    images.push(list);
    const items = a.media ?? [];
    for (let j = 0; j < items.length; j++) {
      const r = decodeImage(items[j]!, svc.maxImageBytes);
      if (!r.ok) {
        details.push(`Answer to '${questionText.get(a.questionId) ?? a.questionId}': media #${j + 1} ${r.problem}`);
        continue;
      }
      const { bytes, ...meta } = r.image;
      if (details.length === 0) await svc.store.put(mediaKey(organizationId, meta.sha256), bytes);
      list.push({ sha256: meta.sha256, mime: meta.mime, width: meta.width, height: meta.height, byteSize: bytes.byteLength });
    }
  }
  const referenced = await existingMedia(svc.db, organizationId, input.answers.flatMap((a) => a.mediaIds ?? []));
  for (const a of input.answers) {
    for (const id of a.mediaIds ?? []) {
      if (!referenced.has(id)) details.push(`Answer to '${questionText.get(a.questionId) ?? a.questionId}': mediaId '${id}' not found (upload it with POST /api/media)`);
    }
  }
  if (details.length) throw new AppError(400, VALIDATION_FAILED, details);

  const mediaIds = await upsertMedia(svc.db, organizationId, images.flat());
  const now = new Date().toISOString();
  const completedAt = input.completedAt ?? (input.status === "COMPLETED" ? now : null);
  const payload: ImportPayload = {
    v: 1,
    templateId: template.id,
    templateVersion: template.version,
    conductedBy: input.conductedBy,
    siteId: input.siteId || null,
    assetId: input.assetId || null,
    // The asset's own name when the client gives none.
    assetName: input.assetName ?? asset?.name ?? null,
    status: input.status,
    startedAt: input.startedAt ?? completedAt ?? now,
    completedAt,
    answers: input.answers.map((a, i) => ({
      questionId: a.questionId,
      answerText: a.answerText ?? null,
      answerNumber: a.answerNumber ?? null,
      answerBoolean: a.answerBoolean ?? null,
      answerDate: a.answerDate ?? null,
      answerJson: a.answerJson ?? null,
      responseOptionId: a.responseOptionId ?? null,
      templateOptionId: a.templateOptionId ?? null,
      unitId: a.unitId ?? null,
      unitCategory: a.unitCategory ?? null,
      note: a.note ?? null,
      mediaIds: [...images[i]!.map((m) => mediaIds.get(m.sha256)!), ...(a.mediaIds ?? [])],
    })),
  };
  const [row] = await svc.db.insert(inspectionImports).values({ organizationId, payload, audit }).returning({ id: inspectionImports.id });
  return row!.id;
}

/** Media rows, deduplicated by content hash per organization; returns sha256 -> media id. */
/** Which of `ids` are media of the organization (malformed ids are simply not). */
async function existingMedia(db: DbOrTx, organizationId: string, ids: string[]): Promise<Set<string>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (!valid.length) return new Set();
  const rows = await db.select({ id: media.id }).from(media).where(and(eq(media.organizationId, organizationId), inArray(media.id, valid)));
  return new Set(rows.map((r) => r.id));
}

export async function upsertMedia(db: DbOrTx, organizationId: string, images: StoredImage[]): Promise<Map<string, string>> {
  if (images.length === 0) return new Map();
  const unique = [...new Map(images.map((m) => [m.sha256, m])).values()];
  const ids = new Map<string, string>();
  // Batched under Postgres' 65,535 parameters per statement.
  for (let i = 0; i < unique.length; i += 1000) {
    const batch = unique.slice(i, i + 1000);
    await db
      .insert(media)
      .values(batch.map((m) => ({ organizationId, sha256: m.sha256, mimeType: m.mime, width: m.width, height: m.height, byteSize: m.byteSize, storageKey: mediaKey(organizationId, m.sha256) })))
      .onConflictDoNothing();
    const rows = await db
      .select({ id: media.id, sha256: media.sha256 })
      .from(media)
      .where(and(eq(media.organizationId, organizationId), inArray(media.sha256, batch.map((m) => m.sha256))));
    for (const r of rows) ids.set(r.sha256, r.id);
  }
  return ids;
}
