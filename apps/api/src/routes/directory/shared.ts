import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { forbidden } from "@insp/core";
import { principalOf } from "../../http/auth.ts";
import { noneMatchHits, revisionETag } from "../../http/etag.ts";

/**
 * Who changes the directory (docs/organization-administration.md): admin users and API keys with
 * directory:write (the operation's keyScopes); a user who is not an admin may only read it.
 */
export const adminOnly: RequestHandler = (req, _res, next) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can change sites, groups, roles, response and asset types") : undefined);
};

export const org = (req: Request) => principalOf(req).organizationId;

/** `"r3-1a2b3c4d"`: the revision, and a fingerprint of the whole view (member and holder counts change without a revision). */
const etagOf = (v: { revision: number }) =>
  revisionETag({ revision: v.revision, fingerprint: createHash("sha256").update(JSON.stringify(v)).digest("hex").slice(0, 8) }, "base64");

/** Answers a view with its ETag; a GET whose If-None-Match names it gets 304. */
export function sendView(req: Request, res: Response, view: { revision: number }, status = 200): void {
  const etag = etagOf(view);
  res.setHeader("ETag", etag);
  if (req.method === "GET" && noneMatchHits(req.header("if-none-match"), etag)) {
    res.status(304).end();
    return;
  }
  res.status(status).json(view);
}
