import { createHash } from "node:crypto";
import { imageSize } from "image-size";

/** Image types accepted on import, sniffed from the bytes (a declared data-URL type is not trusted). */
export type ImageMime = "image/jpeg" | "image/png" | "image/webp" | "image/gif";

interface DecodedImage {
  bytes: Buffer;
  mime: ImageMime;
  width: number;
  height: number;
  sha256: string;
}

export type DecodeResult = { ok: true; image: DecodedImage } | { ok: false; problem: string };

const startsWith = (b: Buffer, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The real type from the magic bytes; null for anything but JPEG, PNG, WebP and GIF. */
export function sniffImageType(b: Buffer): ImageMime | null {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))) return "image/gif";
  if (startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

const IMAGE_SIZE_TYPES: Record<ImageMime, string[]> = { "image/jpeg": ["jpg"], "image/png": ["png"], "image/gif": ["gif"], "image/webp": ["webp"] };

// Standard or URL-safe alphabet, line breaks allowed (MIME), '=' padding only at the end.
const BASE64 = /^[A-Za-z0-9+/_\-\s]*(?:=\s*){0,2}$/;
const DATA_URL = /^data:([^,]*?),/i;

/** The base64 payload of a media item: a bare base64 string or a `data:<mime>;base64,` URL. */
function base64Payload(item: string): { payload: string } | { problem: string } {
  if (/^data:/i.test(item)) {
    const m = DATA_URL.exec(item.slice(0, 256));
    if (!m) return { problem: "is a data URL without a comma" };
    if (!/;base64$/i.test(m[1]!)) return { problem: "is a data URL that is not base64-encoded" };
    return { payload: item.slice(m[0].length) };
  }
  return { payload: item };
}

/** Length without the trailing '=' padding. */
function trailingPaddingStripped(payload: string): number {
  let n = payload.length;
  while (n > 0 && payload.charCodeAt(n - 1) === 61 /* = */) n--;
  return n;
}

/** Number of base64 digits (no whitespace, no padding) without copying a large string when it has no whitespace. */
function base64Chars(payload: string): number {
  if (/\s/.test(payload)) return payload.replace(/[\s=]/g, "").length;
  let n = payload.length;
  while (n > 0 && payload.charCodeAt(n - 1) === 61 /* = */) n--;
  return n;
}

/**
 * image-size reads through a DataView over the whole underlying ArrayBuffer, so on a pooled or
 * over-allocated Buffer a truncated header would be read from unrelated memory instead of failing.
 * Small buffers come from Node's shared pool (short decodes, a small upload's head): inspectImage
 * gives image-size an ArrayBuffer of their own.
 */
function ownBuffer(b: Buffer): Buffer {
  if (b.byteOffset === 0 && b.buffer.byteLength === b.byteLength) return b;
  const own = Buffer.allocUnsafeSlow(b.byteLength);
  b.copy(own);
  return own;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The bytes a media item decodes to, from its length alone (no decoding): what it adds to the
 * organization's stored media at most (MEDIA_MAX_STORED_MB_PER_ORG). 0 for what is not base64.
 */
export function decodedSizeOf(item: string): number {
  const p = base64Payload(item);
  return "problem" in p ? 0 : Math.floor((base64Chars(p.payload) * 3) / 4);
}

/**
 * Decodes one media item strictly (Node's own decoder skips invalid characters silently),
 * checks the size before allocating, sniffs the type and reads the dimensions. Only this
 * one decoded copy exists; the caller stores it and drops it before the next item.
 */
export function decodeImage(item: string, maxBytes: number): DecodeResult {
  const p = base64Payload(item);
  if ("problem" in p) return { ok: false, problem: p.problem };
  // Fast path, for the usual payload without whitespace: Node's decoder skips characters outside
  // the alphabet (and stops at a '=' in the middle), so a decode of exactly the length the
  // payload's digits make proves every character valid, without a regex over megabytes.
  const digits = trailingPaddingStripped(p.payload);
  const estimated = Math.floor((digits * 3) / 4);
  let decoded: Buffer | null = null;
  if (digits > 0 && digits % 4 !== 1 && estimated <= maxBytes) {
    const fast = Buffer.from(p.payload, "base64");
    if (fast.byteLength === estimated && p.payload.length - digits <= 2) decoded = fast;
  }
  if (!decoded) {
    if (!BASE64.test(p.payload)) return { ok: false, problem: "is not valid base64" };
    const chars = base64Chars(p.payload);
    if (chars === 0) return { ok: false, problem: "is empty" };
    if (chars % 4 === 1) return { ok: false, problem: "is not valid base64 (truncated)" };
    const size = Math.floor((chars * 3) / 4);
    if (size > maxBytes) return { ok: false, problem: `is ${mb(size)}, over the per-image limit of ${mb(maxBytes)} (MEDIA_MAX_IMAGE_MB)` };
    decoded = Buffer.from(p.payload, "base64");
  }
  const bytes = ownBuffer(decoded);
  const kind = inspectImage(bytes);
  if ("problem" in kind) return { ok: false, problem: kind.problem };
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { ok: true, image: { bytes, ...kind, sha256 } };
}

/**
 * The type (sniffed) and dimensions of an image from its bytes, or from its first bytes only (an
 * upload's head: every format here states its dimensions near the start), or why it is not one.
 */
export function inspectImage(head: Buffer): { mime: ImageMime; width: number; height: number } | { problem: string } {
  const mime = sniffImageType(head);
  if (!mime) return { problem: "is not a JPEG, PNG, WebP or GIF image" };
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(ownBuffer(head));
  } catch {
    return { problem: `is a corrupt ${mime.slice(6).toUpperCase()} image (its dimensions cannot be read)` };
  }
  if (!size.width || !size.height || (size.type && !IMAGE_SIZE_TYPES[mime].includes(size.type))) {
    return { problem: `is a corrupt ${mime.slice(6).toUpperCase()} image (its dimensions cannot be read)` };
  }
  return { mime, width: size.width, height: size.height };
}
