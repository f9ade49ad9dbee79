import type { NextFunction, Request, Response } from "express";
import { AppError, etagListMatches, parseETagList } from "@insp/core";

/**
 * Entity tags of an inspection detail: its revision, a fingerprint of what it shows of other rows
 * (names of the inspector, site, asset, template version), and the representation (base64 images
 * or references), since a strong tag names one representation: `"r3-1a2b3c4d"`, `"r3-1a2b3c4d.url"`.
 * If-Match looks at the revision only (a renamed site is no reason to refuse a change);
 * If-None-Match compares whole tags.
 */
export const revisionETag = (v: { revision: number; fingerprint: string }, images: "base64" | "url") =>
  `"r${v.revision}-${v.fingerprint}${images === "url" ? ".url" : ""}"`;

/** The opaque part of our tags, and the bare `r3` (the revision alone) clients may write themselves. */
const REVISION_TAG = /^r(\d{1,9})(?:-[0-9a-f]{8})?(?:\.url)?$/;

/**
 * The revisions an If-Match names: null for `*` (any); an empty list when none of its tags is
 * ours or they are weak (If-Match compares strongly: RFC 9110 section 13.1.1), so it fails (412).
 */
export function ifMatchRevisions(header: string): number[] | null {
  const tags = parseETagList(header);
  if (tags === "*") return null;
  return tags.flatMap((tag) => {
    const m = tag.weak ? null : REVISION_TAG.exec(tag.opaque);
    return m ? [Number(m[1])] : [];
  });
}

/** If-None-Match: any tag equal to `etag` (weakly: W/ ignored), or `*`. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  return header !== undefined && etagListMatches(header, etag);
}

/**
 * PATCH needs If-Match (RFC 6585 428), before its body is looked at. `readPath` is the GET whose
 * ETag the client should send, as the answer names it (`/api/inspections/{id}`).
 */
export function requireIfMatch(readPath: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.header("if-match") === undefined) {
      next(new AppError("precondition_required", `If-Match is required: send the ETag of GET ${readPath}, so that a change made meanwhile is not overwritten`));
      return;
    }
    next();
  };
}
