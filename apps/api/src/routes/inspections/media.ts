import { pipeline } from "node:stream/promises";
import rangeParser from "range-parser";
import { getMediaOp, uploadMediaOp } from "@insp/contracts";
import { AppError, getMediaInfo, MediaMissing, notFound, uploadMedia } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { noneMatchHits } from "../../http/etag.ts";
import { route } from "../../http/route.ts";

/**
 * GET /api/media/:id (extension): the image's bytes, streamed from the store. The ETag is the
 * SHA-256 of the bytes (media are content-addressed and never change), so If-None-Match answers
 * 304 and clients may cache for good (private: it needs the caller's credentials). One byte range
 * (RFC 9110 section 14): 206 with Content-Range, 416 when unsatisfiable; If-Range with another
 * ETag, or several ranges, get the whole image.
 */
export const mediaRoute = (deps: Deps) =>
  route(deps, getMediaOp, async ({ params }, req, res) => {
    const m = await getMediaInfo(deps.db, principalOf(req).organizationId, params.id);
    const etag = `"${m.sha256}"`;
    const cacheHeaders = () => {
      res.setHeader("ETag", etag);
      res.setHeader("Cache-Control", "private, max-age=31536000, immutable");
    };
    if (noneMatchHits(req.header("if-none-match"), etag)) {
      cacheHeaders();
      res.status(304).end();
      return;
    }
    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    const ifRange = req.headers["if-range"];
    // Only byte ranges: a Range in another unit is ignored (the whole image, 200).
    if (header && /^bytes=/.test(header) && (!ifRange || ifRange === etag)) {
      const parsed = rangeParser(m.byteSize, header, { combine: true });
      if (parsed === -1) {
        res.setHeader("Content-Range", `bytes */${m.byteSize}`);
        res.status(416).json({ error: `Range not satisfiable: the image has ${m.byteSize} bytes` });
        return;
      }
      if (parsed !== -2 && parsed.type === "bytes" && parsed.length === 1) range = parsed[0];
    }
    // Bytes gone under a row read a moment ago: the orphan sweep took both meanwhile.
    const body = await deps.media.stream(m.storageKey, range).catch((err: unknown) => {
      throw err instanceof MediaMissing ? notFound(`Media ${params.id} not found`) : err;
    });
    // Only now: an error above must not go out with an immutable cache header.
    cacheHeaders();
    res.setHeader("Accept-Ranges", "bytes");
    res.setHeader("Content-Type", m.mimeType);
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (range) {
      res.status(206);
      res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${m.byteSize}`);
      res.setHeader("Content-Length", String(range.end - range.start + 1));
    } else {
      res.setHeader("Content-Length", String(m.byteSize));
    }
    if (req.method === "HEAD") {
      body.destroy();
      res.end();
      return;
    }
    try {
      await pipeline(body, res);
    } catch (err) {
      // The client went away mid-image, or the file broke off: the status line is sent, so the
      // only thing left is to close the connection (pipeline did) and say so in the log.
      req.log.warn({ err, mediaId: m.id }, "media stream ended early");
    }
  });

/**
 * POST /api/media (extension): the body is the image itself, streamed to the store. A JSON or
 * form body was already consumed by the body parsers (and is not an image): 415. Over
 * MEDIA_MAX_IMAGE_MB: 413, at once when the Content-Length says so, else when the bytes cross
 * it; the connection then closes after a bounded drain of the rest (http/body-limits.ts).
 */
export const uploadMediaRoute = (deps: Deps) => {
  const svc = {
    db: deps.db,
    store: deps.media,
    maxImageBytes: deps.env.MEDIA_MAX_IMAGE_MB * 1024 * 1024,
    maxStoredBytes: deps.env.MEDIA_MAX_STORED_MB_PER_ORG * 1024 * 1024,
  };
  return route(deps, uploadMediaOp, async (_input, req, res) => {
    if (req.is(["application/json", "application/x-www-form-urlencoded", "multipart/form-data"])) {
      throw new AppError("unsupported_media_type", "Send the image's bytes as the request body (e.g. Content-Type: image/png), not JSON or a form");
    }
    const length = Number(req.headers["content-length"]);
    if (Number.isFinite(length) && length > svc.maxImageBytes) {
      throw new AppError("too_large", `The image is over the per-image limit of ${deps.env.MEDIA_MAX_IMAGE_MB} MB (MEDIA_MAX_IMAGE_MB)`);
    }
    res.status(201).json(await uploadMedia(svc, principalOf(req).organizationId, req));
  });
};
