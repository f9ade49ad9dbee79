import type { NextFunction, Request, Response } from "express";
import { AppError } from "@insp/core";

/**
 * Entity tags of an inspection detail: its revision, plus the representation (base64 images or
 * references), since a strong tag names one representation. Any of our tags naming the current
 * revision satisfies If-Match.
 */
export const revisionETag = (revision: number, images: "base64" | "url") => `"r${revision}${images === "url" ? ".url" : ""}"`;

const TAG_RE = /^"r(\d{1,9})(?:\.url)?"$/;

/** The entity tags of an If-Match / If-None-Match value; "*" alone is `any`. */
function tagsOf(header: string): { any: true } | { tags: string[] } {
  if (header.trim() === "*") return { any: true };
  return { tags: header.split(",").map((t) => t.trim()).filter(Boolean) };
}

/**
 * The revision an If-Match asks for: null for `*` (any), -1 for tags that are not ours or weak
 * (If-Match compares strongly: RFC 9110 section 13.1.1), so the request fails with 412.
 */
export function ifMatchRevision(header: string): number | null {
  const parsed = tagsOf(header);
  if ("any" in parsed) return null;
  for (const tag of parsed.tags) {
    const m = TAG_RE.exec(tag);
    if (m) return Number(m[1]);
  }
  return -1;
}

/** If-None-Match: any tag equal to `etag` (weakly: W/ ignored), or `*`. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const parsed = tagsOf(header);
  return "any" in parsed || parsed.tags.some((t) => t.replace(/^W\//, "") === etag);
}

/** PATCH needs If-Match (RFC 6585 428), before its body is looked at. */
export function requireIfMatch(req: Request, _res: Response, next: NextFunction): void {
  if (req.header("if-match") === undefined) {
    next(new AppError(428, "If-Match is required: send the ETag of GET /api/inspections/{id}, so that a change made meanwhile is not overwritten"));
    return;
  }
  next();
}
