import type { Readable } from "node:stream";
import type { MediaStore } from "./store.ts";

/**
 * An image to be answered inline, as a `data:<mime>;base64,…` URL, but not read yet: the
 * response writer streams its bytes from the store, encoding as it goes, so an inspection with
 * hundreds of megabytes of images never has them in memory at once (nor as one string: V8
 * caps a string at about 512 MB).
 */
export class InlineImage {
  constructor(
    readonly storageKey: string,
    readonly mime: string,
    readonly bytes: number,
  ) {}

  /** Its bytes as a stream; rejects now when they are missing or the store is down. */
  open(store: MediaStore): Promise<Readable> {
    return store.stream(this.storageKey);
  }

  /** The data URL's text as it is sent: its prefix, then `source` in base64, in pieces of whole 3-byte groups. */
  async *dataUrl(source: Readable): AsyncGenerator<string> {
    yield `data:${this.mime};base64,`;
    let carry: Buffer = Buffer.alloc(0);
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = buf.length - (buf.length % 3);
      yield buf.subarray(0, whole).toString("base64");
      carry = buf.subarray(whole);
    }
    yield carry.toString("base64");
  }

  /** Plain JSON (a log line, a debugger) never reads the bytes: the writer replaces this. */
  toJSON(): string {
    return `data:${this.mime};base64,…`;
  }
}
