import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import path from "node:path";

/**
 * Where media bytes live. Postgres keeps the hash and metadata (media table); the bytes go
 * to a store addressed by a key, so an S3-compatible store can replace the filesystem one
 * by implementing these two calls.
 */
export interface MediaStore {
  /** Stores the bytes under `key` unless they are already there. Idempotent: keys are content hashes. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under `key`; rejects when they are missing. */
  get(key: string): Promise<Buffer>;
  /** The bytes (or the inclusive byte range) under `key` as a stream, without holding them in memory. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * Stores a stream of unknown content without holding it in memory: hashed while written, kept
   * under its content key if `accept` (given the SHA-256 and the first bytes) agrees. Throws
   * TooLarge past `maxBytes`, or what `accept` throws; nothing is kept then.
   */
  ingest<T>(organizationId: string, source: Readable, maxBytes: number, accept: (sha256: string, head: Buffer, bytes: number) => T): Promise<T>;
}

/** An upload past its limit. */
export class TooLarge extends Error {}

/** How much of an upload is kept in memory for sniffing its type and reading its dimensions. */
const HEAD_BYTES = 512 * 1024;

/** Content-addressed key of an organization's image: `<organizationId>/<sha[0..2]>/<sha256>`. */
export const mediaKey = (organizationId: string, sha256: string) => `${organizationId}/${sha256.slice(0, 2)}/${sha256}`;

const KEY_RE = /^[0-9a-f-]{36}\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

/** Files under MEDIA_DIR. Writes go to a temporary file that is synced and then renamed, so a reader never sees half a file. */
export class FsMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!KEY_RE.test(key)) throw new Error(`invalid media key ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(key);
    const existing = await stat(file).catch(() => null);
    if (existing?.size === bytes.byteLength) return; // same hash, same bytes: deduplicated
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    try {
      const fh = await open(tmp, "wx");
      try {
        await fh.writeFile(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.file(key));
  }

  async ingest<T>(organizationId: string, source: Readable, maxBytes: number, accept: (sha256: string, head: Buffer, bytes: number) => T): Promise<T> {
    const dir = path.join(this.root, "tmp");
    await mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `${randomUUID()}.upload`);
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
      // The source is piped, not part of the pipeline: on an error it is left open (and drained),
      // so the caller can still answer (413) on the same connection.
      source.once("error", (err) => meter.destroy(err));
      source.once("close", () => {
        if (!source.readableEnded) meter.destroy(new Error("the upload was aborted"));
      });
      source.pipe(meter);
      try {
        await pipeline(meter, createWriteStream(tmp, { flags: "wx" }));
      } catch (err) {
        source.unpipe(meter);
        source.resume();
        throw err;
      }
      const sha256 = hash.digest("hex");
      const result = accept(sha256, Buffer.concat(head), size);
      const file = this.file(mediaKey(organizationId, sha256));
      await mkdir(path.dirname(file), { recursive: true });
      const fh = await open(tmp, "r+");
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, file); // same content, same name: replacing an existing copy changes nothing
      return result;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.file(key);
    await stat(file); // rejects now, not mid-response, when the file is missing
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }
}
