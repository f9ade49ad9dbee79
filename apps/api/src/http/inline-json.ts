import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import { InlineImage, type MediaStore } from "@insp/core";

// A placeholder no answer text can hold: request bodies with NUL are refused, and Postgres text
// cannot store it.
const marker = (i: number) => `\u0000inline:${i}\u0000`;
const MARKERS = /"\\u0000inline:\d+\\u0000"/;

/**
 * Answers `body` as JSON (200) with every InlineImage in it streamed from the store as its
 * base64 data URL, with backpressure: memory holds one chunk of one image, not the images, so
 * the spec's default (base64) serves an inspection of any size. Without InlineImages: res.json.
 * A store failing after the first image (bytes lost, S3 down) can no longer change the status:
 * the connection is cut, so the client sees an incomplete answer, never a wrong one.
 */
export async function sendWithInlineImages(req: Request, res: Response, store: MediaStore, body: unknown): Promise<void> {
  const inline: InlineImage[] = [];
  // The holder's own value: JSON.stringify hands the replacer what toJSON() made of it.
  const text = JSON.stringify(body, function (this: Record<string, unknown>, key, value: unknown) {
    const own = this[key];
    return own instanceof InlineImage ? marker(inline.push(own) - 1) : value;
  });
  if (!inline.length) {
    res.type("application/json").send(text);
    return;
  }
  const between = text.split(MARKERS);
  // The first image is opened before anything is sent: a store that is down (503) or bytes that
  // are missing still get an error status then.
  const first = await inline[0]!.open(store);
  res.status(200).type("application/json");
  try {
    await pipeline(async function* () {
      for (const [i, image] of inline.entries()) {
        yield between[i]!;
        yield '"';
        yield* image.dataUrl(i === 0 ? first : await image.open(store));
        yield '"';
      }
      yield between[inline.length]!;
    }, res);
  } catch (err) {
    if (!res.writableEnded && !req.socket.destroyed) req.log.warn({ err, requestId: req.id }, "inspection answer cut short: an image could not be read");
    res.destroy();
    first.destroy(); // not read yet when the client went before its turn
  }
}
