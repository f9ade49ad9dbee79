import type { ErrorRequestHandler, RequestHandler } from "express";
import { ERROR_STATUS } from "@insp/contracts/errors";
import { AppError, MediaStoreUnavailable } from "@insp/core";
import { isConnectionError } from "@insp/db";
import { isRedisUnavailable } from "@insp/queue";

/**
 * Seconds a client should wait before sending a request again: while a dependency (Postgres,
 * Redis, the media store) or a queue cannot take it (503), or while the work it started is
 * still running (202, 503).
 */
export const RETRY_AFTER_SECONDS = "5";

export const notFoundRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: `No route for ${req.method} ${req.path}` });
};

/**
 * The one error middleware: an AppError gets its kind's status (ERROR_STATUS) and keeps its message; body-parser
 * errors map to 400/413/415; an unreachable Postgres or Redis is a 503 with Retry-After;
 * anything else is a 500 whose message stays in the log (with the request id, scrubbed of
 * request content by the logger's error serializer), never in the response.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof AppError) {
    if (err.retryAfterSeconds !== undefined) res.set("Retry-After", String(err.retryAfterSeconds));
    res.status(ERROR_STATUS[err.kind]).json({ error: err.message, ...(err.details ? { details: err.details } : {}), ...err.body });
    return;
  }
  const type = (err as { type?: string }).type;
  const maxValues = (err as { maxValues?: number }).maxValues;
  if (typeof maxValues === "number") {
    res.status(413).json({ error: `Request body holds more than ${maxValues} JSON values (JSON_MAX_VALUES)` });
    return;
  }
  if (type === "entity.parse.failed") {
    // Our own refusals (NUL, unpaired surrogates, depth) keep their message.
    const refused = err instanceof Error && /^Request body contains/.test(err.message);
    res.status(400).json({ error: refused ? err.message : "Malformed JSON in request body" });
    return;
  }
  if (type === "entity.too.large") {
    const limit = (err as { limit?: number }).limit;
    const size = limit === undefined ? "" : limit >= 1024 * 1024 ? ` (limit ${Math.round(limit / 1024 / 1024)} MB)` : ` (limit ${Math.round(limit / 1024)} KB)`;
    res.status(413).json({ error: `Request body too large${size}` });
    return;
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    res.status(415).json({ error: "Unsupported body encoding or charset: JSON bodies are UTF-8 (RFC 8259), compressed with gzip, deflate or br if at all" });
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    res.status(status).json({ error: "Bad request" });
    return;
  }
  // Postgres or Redis unreachable (a restart, a failover, a dropped connection): the request
  // did nothing that stays, and the same request can be sent again shortly.
  if (isConnectionError(err) || isRedisUnavailable(err)) {
    req.log.warn({ err, requestId: req.id }, "dependency unavailable");
    res
      .status(503)
      .set("Retry-After", RETRY_AFTER_SECONDS)
      .json({ error: "Service temporarily unavailable (database or queue unreachable); retry the request shortly" });
    return;
  }
  if (err instanceof MediaStoreUnavailable) {
    req.log.warn({ err, requestId: req.id }, "media store unavailable");
    res.status(503).set("Retry-After", RETRY_AFTER_SECONDS).json({ error: "The media store is unavailable; retry the request shortly" });
    return;
  }
  req.log.error({ err, requestId: req.id }, "unhandled error");
  res.status(500).json({ error: `Internal server error (request id ${String(req.id)})` });
};
