import type { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import { inspectImage } from "./media.ts";
import { TooLarge } from "./media-store.ts";
import { upsertMedia, type PrepareServices } from "./prepare.ts";

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
 * POST /api/media: one image streamed to the store (hashed while written, never whole in
 * memory), its type sniffed and its dimensions read from the first bytes, then its media row
 * (content-addressed: the same bytes give the same id). Nothing is kept when it is refused.
 */
export async function uploadMedia(svc: PrepareServices, organizationId: string, source: Readable): Promise<UploadedMedia> {
  let meta: { sha256: string; mime: string; width: number; height: number; byteSize: number };
  try {
    meta = await svc.store.ingest(organizationId, source, svc.maxImageBytes, (sha256, head, bytes) => {
      if (bytes === 0) throw new AppError(400, "The request body is empty: send the image's bytes");
      const kind = inspectImage(head);
      if ("problem" in kind) throw new AppError(kind.problem.startsWith("is not") ? 415 : 400, `The upload ${kind.problem}`);
      return { sha256, mime: kind.mime, width: kind.width, height: kind.height, byteSize: bytes };
    });
  } catch (err) {
    if (err instanceof TooLarge) throw new AppError(413, `The image is over the per-image limit of ${mb(svc.maxImageBytes)} (MEDIA_MAX_IMAGE_MB)`);
    throw err;
  }
  const ids = await upsertMedia(svc.db, organizationId, [meta]);
  const mediaId = ids.get(meta.sha256)!;
  return { mediaId, url: `/api/media/${mediaId}`, mimeType: meta.mime, imgDimension: `${meta.width}x${meta.height}`, bytes: meta.byteSize, sha256: meta.sha256 };
}
