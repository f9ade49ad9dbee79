import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError } from "@insp/core";

export const notFoundRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: `No route for ${req.method} ${req.path}` });
};

/**
 * The one error middleware: AppError keeps its status and message; body-parser
 * errors map to 400/413/415; anything else is a 500 whose message stays in the log
 * (with the request id), never in the response.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof AppError) {
    res.status(err.status).json({ error: err.message, ...(err.details ? { details: err.details } : {}), ...err.body });
    return;
  }
  const type = (err as { type?: string }).type;
  if (type === "entity.parse.failed") {
    const nul = err instanceof Error && err.message.includes("NUL character");
    res.status(400).json({ error: nul ? err.message : "Malformed JSON in request body" });
    return;
  }
  if (type === "entity.too.large") {
    const limit = (err as { limit?: number }).limit;
    res.status(413).json({ error: `Request body too large${limit ? ` (limit ${Math.round(limit / 1024 / 1024)} MB)` : ""}` });
    return;
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    res.status(415).json({ error: "Unsupported body encoding or charset" });
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    res.status(status).json({ error: "Bad request" });
    return;
  }
  req.log.error({ err, requestId: req.id }, "unhandled error");
  res.status(500).json({ error: `Internal server error (request id ${String(req.id)})` });
};
