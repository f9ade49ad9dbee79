import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where media bytes live. Postgres keeps the hash and metadata (media table) and each row's
 * storage key; the bytes go to a store addressed by that key: a folder (FsMediaStore) or an
 * S3-compatible bucket (S3MediaStore).
 */
export interface MediaStore {
  /** Stores the bytes under `key` (a key holds one row's image: writing it again writes the same bytes). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Moves a finished local file (a spooled upload of `bytes` bytes) into the store under `key`. */
  putFile(key: string, file: string, bytes: number): Promise<void>;
  /** The bytes (or the inclusive byte range) under `key` as a stream, without holding them in memory; rejects now when missing. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Deletes what is stored under `keys`; a key with nothing stored is not an error. */
  delete(keys: string[]): Promise<void>;
  /** A local folder for uploads being received (on the store's filesystem for the folder store, so moving is a rename). */
  readonly spoolDir: string;
}

/** An upload past its limit. */
export class TooLarge extends Error {}

/** The client went away before the upload's end (nothing is kept). */
export class UploadAborted extends Error {}

/** Nothing is stored under the key (its row was swept meanwhile, or the bytes were lost). */
export class MediaMissing extends Error {}

/** The store did not answer, or answered with a failure of its own (the API says 503: retry shortly). */
export class MediaStoreUnavailable extends Error {}

/**
 * The key of one media row's bytes: `<organizationId>/<id[0..2]>/<id>`. Keyed by the row, not by
 * the content: when the orphan sweep deletes a row and then its bytes, an upload of the same
 * bytes meanwhile gets a new row and a key of its own, so the sweep never deletes what it wrote.
 * (Rows written before this kept content keys `<organizationId>/<sha[0..2]>/<sha256>`; both are read.)
 */
export const mediaStorageKey = (organizationId: string, mediaId: string) => `${organizationId}/${mediaId.slice(0, 2)}/${mediaId}`;

/**
 * The key of one inspection report's PDF (docs/reports.md): `<organizationId>/reports/<reportId>.pdf`,
 * beside the organization's images in the same store, never shared with a media row.
 */
export const reportStorageKey = (organizationId: string, reportId: string) => `${organizationId}/reports/${reportId}.pdf`;

const KEY_RE = /^[0-9a-f-]{36}\/(?:[0-9a-f]{2}\/(?:[0-9a-f]{64}|[0-9a-f-]{36})|reports\/[0-9a-f-]{36}\.pdf)$/;
/** Keys come from our own rows; anything else (a path with `..`, say) is refused before it reaches a store. */
export function assertMediaKey(key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`invalid media key ${key}`);
  return key;
}

/** How much of an upload is kept in memory for sniffing its type and reading its dimensions. */
const HEAD_BYTES = 512 * 1024;

export interface Spooled {
  /** The local file holding the bytes (synced); the caller moves it into a store or removes it. */
  file: string;
  sha256: string;
  /** The first bytes, for sniffing the type and reading the dimensions. */
  head: Buffer;
  bytes: number;
}

/**
 * Receives an upload into a file under `dir` without holding it in memory: hashed while written,
 * its first 512 KB kept. Throws TooLarge past `maxBytes` (nothing is kept then). The source is
 * piped, not part of the pipeline: on an error it is left open and paused, unread, so the caller
 * can still answer (413) on the same connection, and the HTTP layer decides what becomes of the
 * rest (the API drains it within bounds, then closes the connection).
 */
export async function spool(source: Readable, dir: string, maxBytes: number): Promise<Spooled> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}.upload`);
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TooLarge(`over ${maxBytes} bytes`));
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  try {
    // A client gone while the request was authenticated has closed its stream already: piping it
    // would wait for an end that never comes, with the spool file open.
    if (source.destroyed && !source.readableEnded) throw new UploadAborted("the upload was aborted");
    // A request stream fails only when its client goes (a reset connection).
    source.once("error", (err) => meter.destroy(new UploadAborted("the upload was aborted", { cause: err })));
    source.once("close", () => {
      if (!source.readableEnded) meter.destroy(new UploadAborted("the upload was aborted"));
    });
    source.pipe(meter);
    try {
      await pipeline(meter, createWriteStream(file, { flags: "wx" }));
    } catch (err) {
      source.unpipe(meter); // and paused
      throw err;
    }
    const fh = await open(file, "r+");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    return { file, sha256: hash.digest("hex"), head: Buffer.concat(head), bytes: size };
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}
