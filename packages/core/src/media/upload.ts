import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { DbOrTx } from "@insp/db";
import { AppError } from "../errors.ts";
import { inspectImage } from "./image.ts";
import { assertMediaRoom } from "./quota.ts";
import { mediaExists, upsertMedia } from "./rows.ts";
import { spool, TooLarge, UploadAborted, type MediaStore } from "./store.ts";

export interface MediaServices {
  db: DbOrTx;
  store: MediaStore;
  /** MEDIA_MAX_IMAGE_MB in bytes */
  maxImageBytes: number;
  /** MEDIA_MAX_STORED_MB_PER_ORG in bytes (quota.ts); unset: no limit. */
  maxStoredBytes?: number;
}

export interface UploadedMedia {
  mediaId: string;
  url: string;
  mimeType: string;
  imgDimension: string;
  bytes: number;
  sha256: string;
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * POST /api/media: one image received into a spool file (hashed while written, never whole in
 * memory), its type sniffed and its dimensions read from the first bytes, then its media row
 * (content-addressed: the same bytes give the same id) and the bytes moved into the store under
 * the row's key. Nothing is kept when it is refused, also when new bytes would pass the
 * organization's stored-media limit (413, MEDIA_MAX_STORED_MB_PER_ORG).
 */
export async function uploadMedia(svc: MediaServices, organizationId: string, source: Readable): Promise<UploadedMedia> {
  let spooled;
  try {
    spooled = await spool(source, svc.store.spoolDir, svc.maxImageBytes);
  } catch (err) {
    if (err instanceof TooLarge) throw new AppError("too_large", `The image is over the per-image limit of ${mb(svc.maxImageBytes)} (MEDIA_MAX_IMAGE_MB)`);
    // Nobody reads this answer; it keeps a client's hang-up out of the error log.
    if (err instanceof UploadAborted) throw new AppError("invalid", "The upload was aborted before its end");
    throw err;
  }
  try {
    if (spooled.bytes === 0) throw new AppError("invalid", "The request body is empty: send the image's bytes");
    const kind = inspectImage(spooled.head);
    if ("problem" in kind) throw new AppError(kind.problem.startsWith("is not") ? "unsupported_media_type" : "invalid", `The upload ${kind.problem}`);
    const meta = { sha256: spooled.sha256, mime: kind.mime, width: kind.width, height: kind.height, byteSize: spooled.bytes };
    // The same bytes uploaded again add nothing: their row is reused.
    if (!(await mediaExists(svc.db, organizationId, meta.sha256))) await assertMediaRoom(svc.db, organizationId, meta.byteSize, svc.maxStoredBytes);
    const row = (await upsertMedia(svc.db, organizationId, [meta])).get(meta.sha256)!;
    await svc.store.putFile(row.storageKey, spooled.file, spooled.bytes);
    return {
      mediaId: row.id,
      url: `/api/media/${row.id}`,
      mimeType: meta.mime,
      imgDimension: `${meta.width}x${meta.height}`,
      bytes: meta.byteSize,
      sha256: meta.sha256,
    };
  } finally {
    await rm(spooled.file, { force: true });
  }
}
