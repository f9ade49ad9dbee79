import { createReadStream } from "node:fs";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { assertMediaKey, MediaMissing, MediaStoreUnavailable, type MediaStore } from "./store.ts";

/** S3's "no such key" is MediaMissing; anything else (network, throttling, 5xx, credentials) MediaStoreUnavailable. */
function classify(err: unknown): never {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404) throw new MediaMissing("no object under this key");
  throw new MediaStoreUnavailable(`S3 store failed: ${e.name ?? "error"}`, { cause: err });
}

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint (MinIO, Ceph, R2, ...); unset: AWS. */
  endpoint?: string | undefined;
  /** Bucket in the path rather than the host name (most self-hosted stores need it). */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (environment, shared config, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Prepended to every key, e.g. "media/". */
  prefix: string;
  /** Local folder for uploads being received before they are sent on. */
  spoolDir?: string | undefined;
}

/** Keys of one DeleteObjects call (S3's limit). */
const DELETE_BATCH = 1000;

/**
 * Media in an S3-compatible bucket (MEDIA_STORE=s3), so API replicas and workers on different
 * hosts share one store. Uploads are received into a local spool file first (hashed and checked
 * on the way), then sent with their length known; reads stream straight from the bucket.
 *
 * Checksums: the SDK's default for streamed bodies (flexible checksums, aws-chunked framing) is
 * not understood by every S3-compatible server (some store the framing with the bytes), so
 * checksums are sent only where the operation requires one.
 */
export class S3MediaStore implements MediaStore {
  readonly spoolDir: string;
  private readonly client: S3Client;

  constructor(private readonly opts: S3StoreOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    this.spoolDir = opts.spoolDir ?? mkdtempSync(path.join(os.tmpdir(), "insp-media-"));
  }

  private key(key: string): string {
    return `${this.opts.prefix}${assertMediaKey(key)}`;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client
      .send(new PutObjectCommand({ Bucket: this.opts.bucket, Key: this.key(key), Body: bytes, ContentLength: bytes.byteLength }))
      .catch(classify);
  }

  async putFile(key: string, file: string, bytes: number): Promise<void> {
    const body = createReadStream(file);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.opts.bucket, Key: this.key(key), Body: body, ContentLength: bytes })).catch(classify);
    } finally {
      body.destroy(); // a request that failed before reading it leaves it open otherwise
    }
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.client
      .send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.key(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
      .catch(classify);
    return out.Body as Readable;
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const out = await this.client
        .send(new DeleteObjectsCommand({ Bucket: this.opts.bucket, Delete: { Objects: batch.map((k) => ({ Key: this.key(k) })), Quiet: true } }))
        .catch(classify);
      const failed = (out.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
      if (failed.length) throw new Error(`S3 DeleteObjects failed for ${failed.length} of ${batch.length} keys (${failed[0]!.Code ?? "unknown"})`);
    }
  }

  /** Closes the client's sockets (shutdown). */
  close(): void {
    this.client.destroy();
  }
}
