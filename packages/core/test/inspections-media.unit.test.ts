import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatInspectionNumber } from "../src/inspections/index.ts";
import { decodeImage, inspectImage, sniffImageType } from "../src/media/index.ts";
import { spool, UploadAborted } from "../src/media/store.ts";

const MB = 1024 * 1024;
// 1x1 images: GIF89a and lossless WebP (well-known), PNG signature + IHDR.
const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const webp = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
const pngHeader = Buffer.from("89504e470d0a1a0a0000000d4948445200000003000000020802000000", "hex");
const jpegHeader = Buffer.from("ffd8ffe000104a46494600010100000100010000ffc0001108000400050301220002110103110 1ffd9".replace(/\s/g, ""), "hex");

describe("sniffImageType", () => {
  it("recognises the four types by their magic bytes only", () => {
    expect(sniffImageType(gif)).toBe("image/gif");
    expect(sniffImageType(webp)).toBe("image/webp");
    expect(sniffImageType(pngHeader)).toBe("image/png");
    expect(sniffImageType(jpegHeader)).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("%PDF-1.7"))).toBeNull();
    expect(sniffImageType(Buffer.from("RIFF0000WAVE"))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe("decodeImage", () => {
  it("decodes bare base64, data URLs (whatever type they declare) and MIME line breaks, with dimensions and hash", () => {
    const a = decodeImage(gif.toString("base64"), MB);
    const b = decodeImage(`data:image/png;base64,${gif.toString("base64")}`, MB);
    const c = decodeImage(gif.toString("base64").replace(/(.{16})/g, "$1\r\n"), MB);
    for (const r of [a, b, c]) {
      expect(r.ok).toBe(true);
      if (r.ok) expect([r.image.mime, r.image.width, r.image.height, r.image.bytes.equals(gif)]).toEqual(["image/gif", 1, 1, true]);
    }
    if (a.ok && b.ok) expect(a.image.sha256).toBe(b.image.sha256);
    const j = decodeImage(jpegHeader.toString("base64"), MB);
    expect(j.ok && [j.image.width, j.image.height]).toEqual([5, 4]);
    const w = decodeImage(webp.toString("base64url"), MB);
    expect(w.ok && w.image.mime).toBe("image/webp");
  });

  it.each([
    ["", "is empty"],
    ["####", "is not valid base64"],
    ["QUJD=RA==", "is not valid base64"],
    ["QUJDR", "is not valid base64 (truncated)"],
    ["data:image/png,abc", "is a data URL that is not base64-encoded"],
    ["data:image/png;base64", "is a data URL without a comma"],
    [Buffer.from("hello world").toString("base64"), "is not a JPEG, PNG, WebP or GIF image"],
    [pngHeader.subarray(0, 12).toString("base64"), "is a corrupt PNG image (its dimensions cannot be read)"],
  ])("%j: %s", (input, problem) => {
    expect(decodeImage(input, MB)).toEqual({ ok: false, problem });
  });

  it("refuses an image over the limit before decoding it", () => {
    expect(decodeImage(Buffer.alloc(3000).toString("base64"), 2048)).toEqual({
      ok: false,
      problem: "is 0.0 MB, over the per-image limit of 0.0 MB (MEDIA_MAX_IMAGE_MB)",
    });
  });
});

describe("formatInspectionNumber", () => {
  it("pads to six digits and grows past them", () => {
    expect(formatInspectionNumber(1)).toBe("INS-000001");
    expect(formatInspectionNumber(123)).toBe("INS-000123");
    expect(formatInspectionNumber(1234567)).toBe("INS-1234567");
  });
});

describe("decodeImage on truncated headers", () => {
  it("never reads dimensions from memory beyond the decoded bytes (pooled small buffers)", () => {
    // Fill Node's buffer pool with plausible header bytes, then decode a truncated PNG many times.
    for (let i = 0; i < 200; i++) {
      Buffer.from(pngHeader.toString("base64"), "base64");
      expect(decodeImage(pngHeader.subarray(0, 16).toString("base64"), MB)).toEqual({
        ok: false,
        problem: "is a corrupt PNG image (its dimensions cannot be read)",
      });
    }
  });
});

describe("inspectImage on a small upload's head", () => {
  it("reads dimensions only from the bytes it is given, not from the buffer they are a view of", () => {
    // "GIF89a" alone, as a view into memory whose next bytes happen to say 16x16.
    const head = Buffer.from("GIF89a\x10\x00\x10\x00", "latin1").subarray(0, 6);
    expect(inspectImage(head)).toEqual({ problem: "is a corrupt GIF image (its dimensions cannot be read)" });
    expect(inspectImage(Buffer.from("GIF89a\x10\x00\x10\x00", "latin1"))).toEqual({ mime: "image/gif", width: 16, height: 16 });
  });
});

describe("spool", () => {
  it("refuses at once a request stream its client closed before the upload began, and keeps no file", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "spool-"));
    try {
      const gone = new PassThrough();
      gone.write(Buffer.from("GIF89a"));
      gone.destroy();
      await new Promise((r) => setImmediate(r));
      await expect(spool(gone, dir, MB)).rejects.toBeInstanceOf(UploadAborted);
      const cut = new PassThrough();
      const pending = spool(cut, dir, MB);
      cut.write(Buffer.from("GIF89a"));
      while (cut.listenerCount("close") === 0) await new Promise((r) => setTimeout(r, 5)); // piped by now
      cut.destroy(new Error("socket hang up"));
      await expect(pending).rejects.toBeInstanceOf(UploadAborted);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
