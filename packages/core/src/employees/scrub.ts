/**
 * Replacing an erased person's values in stored text and JSON (erase.ts, docs/erasure.md): each
 * value is replaced by the pseudonym wherever it stands as a whole word (not inside a longer
 * word or number), case-insensitively. Values shorter than MIN_LENGTH are left out of free text:
 * a two-letter surname would hit unrelated words; the person's full name still catches them.
 * No I/O: unit-tested.
 */

const MIN_LENGTH = 3;

export interface Scrubber {
  /** The values looked for, for a first filter in SQL (`ilike any`), longest first. */
  values: string[];
  /** `s` with every value replaced. */
  text(s: string): string;
  /** A copy of a JSON value with every string (and object key) scrubbed. */
  json(v: unknown): unknown;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function scrubberFor(values: readonly (string | null | undefined)[], pseudonym: string): Scrubber {
  const found = [...new Set(values.map((v) => v?.trim() ?? "").filter((v) => v.length >= MIN_LENGTH && v.toLowerCase() !== pseudonym.toLowerCase()))];
  found.sort((a, b) => b.length - a.length);
  const re = found.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${found.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`, "giu") : null;
  const text = (s: string) => (re ? s.replace(re, pseudonym) : s);
  const json = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map(json);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), json(x)]));
    return v;
  };
  return { values: found, text, json };
}

/** `ilike` patterns matching text that holds one of the values anywhere (SQL's first filter; Scrubber decides). */
export const likePatterns = (values: readonly string[]) => values.map((v) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
