import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
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
}

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

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.file(key);
    await stat(file); // rejects now, not mid-response, when the file is missing
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }
}
