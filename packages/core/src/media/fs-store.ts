import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { assertMediaKey, MediaMissing, type MediaStore } from "./store.ts";

/** A missing file is MediaMissing; other file-system failures stay what they are (a 500). */
const missing = (err: unknown): never => {
  if ((err as { code?: string }).code === "ENOENT") throw new MediaMissing("no bytes under this key");
  throw err;
};

/** Files under MEDIA_DIR. Writes go to a temporary file that is synced and then renamed, so a reader never sees half a file. */
export class FsMediaStore implements MediaStore {
  readonly spoolDir: string;

  constructor(private readonly root: string) {
    this.spoolDir = path.join(root, "tmp");
  }

  private file(key: string): string {
    return path.join(this.root, assertMediaKey(key));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(key);
    const existing = await stat(file).catch(() => null);
    if (existing?.size === bytes.byteLength) return; // one key, one row's bytes: already there
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

  async putFile(key: string, file: string): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target); // the spool folder is inside MEDIA_DIR: same filesystem
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.file(key);
    await stat(file).catch(missing); // rejects now, not mid-response, when the file is missing
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) await rm(this.file(key), { force: true });
  }
}
