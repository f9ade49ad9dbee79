import { FsMediaStore } from "./fs-store.ts";
import type { S3StoreOptions } from "./s3-store.ts";
import type { MediaStore } from "./store.ts";

export { decodeImage, decodedSizeOf, inspectImage, sniffImageType } from "./image.ts";
export { reportStorageKey, MediaMissing, MediaStoreUnavailable, type MediaStore } from "./store.ts";
export { FsMediaStore } from "./fs-store.ts";
export { touchMedia, upsertMedia } from "./rows.ts";
export { uploadMedia, type MediaServices } from "./upload.ts";
export { assertMediaRoom } from "./quota.ts";
export { getMediaInfo } from "./read.ts";
export { InlineImage } from "./inline.ts";
export { sweepOrphanMedia } from "./sweep.ts";

/** The media settings of an app's env (config's mediaSettings). */
export interface MediaStoreSettings {
  MEDIA_STORE: "fs" | "s3";
  MEDIA_DIR: string;
  MEDIA_S3_BUCKET?: string | undefined;
  MEDIA_S3_REGION: string;
  MEDIA_S3_ENDPOINT?: string | undefined;
  MEDIA_S3_FORCE_PATH_STYLE: boolean;
  MEDIA_S3_ACCESS_KEY_ID?: string | undefined;
  MEDIA_S3_SECRET_ACCESS_KEY?: string | undefined;
  MEDIA_S3_PREFIX: string;
  MEDIA_SPOOL_DIR?: string | undefined;
}

/**
 * The store the settings name: a folder (default) or an S3-compatible bucket. The AWS SDK is
 * loaded only for the latter (about 10 MB of memory per process otherwise).
 */
export async function createMediaStore(s: MediaStoreSettings): Promise<MediaStore> {
  if (s.MEDIA_STORE === "fs") return new FsMediaStore(s.MEDIA_DIR);
  const { S3MediaStore } = await import("./s3-store.ts");
  const opts: S3StoreOptions = {
    bucket: s.MEDIA_S3_BUCKET!,
    region: s.MEDIA_S3_REGION,
    endpoint: s.MEDIA_S3_ENDPOINT,
    forcePathStyle: s.MEDIA_S3_FORCE_PATH_STYLE,
    credentials: s.MEDIA_S3_ACCESS_KEY_ID ? { accessKeyId: s.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: s.MEDIA_S3_SECRET_ACCESS_KEY! } : undefined,
    prefix: s.MEDIA_S3_PREFIX,
    spoolDir: s.MEDIA_SPOOL_DIR,
  };
  return new S3MediaStore(opts);
}
