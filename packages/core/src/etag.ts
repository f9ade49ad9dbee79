/**
 * Entity tags in If-Match and If-None-Match (RFC 9110 sections 8.8.3, 13.1.1 and 13.1.2), read
 * one way for the whole service: the inspection, action, media and report routes and SCIM.
 */

/** An entity tag: `W/"x"` is `{ weak: true, opaque: "x" }`, `"x"` is `{ weak: false, opaque: "x" }`. */
export interface EntityTag {
  weak: boolean;
  opaque: string;
}

/**
 * One member of a list: an optional `W/` (case-sensitive, as RFC 9110 writes it), a quoted tag
 * of etagc characters (no space, no DQUOTE), then a comma or the end. The leading comma is part
 * of the match and the trailing one only looked at, so consecutive members all match.
 */
const MEMBER = /(?:^|,)\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?=,|$)/g;

/**
 * The tags of an If-Match or If-None-Match value: `*` alone means any; otherwise its entity tags,
 * in order. A member that is not an entity tag (unquoted, a lower-case `w/`, a `*` inside a list)
 * is left out: it names no representation, so it can neither match nor fail the others.
 */
export function parseETagList(header: string): "*" | EntityTag[] {
  if (header.trim() === "*") return "*";
  return [...header.matchAll(MEMBER)].map((m) => ({ weak: m[1] !== undefined, opaque: m[2]! }));
}

/** The entity tag of an ETag value such as `W/"1a2b"`; undefined when it is not exactly one. */
export function parseETag(value: string): EntityTag | undefined {
  const tags = parseETagList(value);
  return tags !== "*" && tags.length === 1 ? tags[0] : undefined;
}

/**
 * Whether an If-Match or If-None-Match value names `etag` (an ETag this service sent): `*`, or
 * any tag of its list equal to it by weak comparison (RFC 9110 section 8.8.3.2: `W/"x"` and
 * `"x"` match).
 */
export function etagListMatches(header: string, etag: string): boolean {
  const tags = parseETagList(header);
  if (tags === "*") return true;
  const mine = parseETag(etag);
  return mine !== undefined && tags.some((t) => t.opaque === mine.opaque);
}
