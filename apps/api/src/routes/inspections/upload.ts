import { uploadMediaOp } from "@insp/contracts";
import { AppError, uploadMedia } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/**
 * POST /api/media (extension): the body is the image itself, streamed to the store. A JSON or
 * form body was already consumed by the body parsers (and is not an image): 415. Over
 * MEDIA_MAX_IMAGE_MB: 413, at once when the Content-Length says so, else when the bytes cross
 * it; the connection then closes after a bounded drain of the rest (http/body-limits.ts).
 */
export const uploadMediaRoute = (deps: Deps) => {
  const svc = { db: deps.db, store: deps.media, maxImageBytes: deps.env.MEDIA_MAX_IMAGE_MB * 1024 * 1024, maxStoredBytes: deps.env.MEDIA_MAX_STORED_MB_PER_ORG * 1024 * 1024 };
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
