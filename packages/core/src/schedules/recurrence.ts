import { DateTime, IANAZone } from "luxon";
import * as rrulePackage from "rrule";
import type { Options } from "rrule";

/**
 * A schedule's recurrence expanded to occurrences (docs/schedules.md, "Time"). Pure: no I/O, no clock.
 *
 * The `rrule` package expands the rule; Luxon places each result in the schedule's IANA zone.
 * rrule's own `tzid` support returns "UTC dates that show the local time" and depends on the
 * process's zone, so it is not used: the rule is expanded over *wall-clock* times (local dates and
 * times written as if UTC, no zone), and each wall-clock time becomes an instant in the zone here:
 *
 * - a local time that occurs twice (autumn, clocks go back) is the first of the two (RFC 5545 3.3.5);
 * - a local time that does not exist (spring, clocks go forward) is read with the offset before the
 *   gap (RFC 5545 3.3.5), so 02:30 on a day Europe/Berlin skips 02:00-03:00 is 03:30 CEST;
 * - a date-time UNTIL ending in Z is an instant (the last start is at or before it); a date-only
 *   UNTIL includes that local date.
 *
 * Month ends and leap days are rrule's, as RFC 5545 says: BYMONTHDAY=31 skips months without a
 * 31st, BYMONTHDAY=-1 is the last day of each month, a yearly rule from 29 February occurs in leap
 * years only.
 */

/**
 * rrule's package gives Node its CommonJS build (its ESM build is not marked as a module), whose
 * names Node's ESM loader finds only under `default`; bundlers and vitest see the named exports.
 */
const { RRule } = "RRule" in rrulePackage ? rrulePackage : (rrulePackage as unknown as { default: typeof rrulePackage }).default;
type RRule = InstanceType<typeof RRule>;

export interface RuleSpec {
  /** RFC 5545 RRULE value without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=MO,WE`. An `RRULE:` prefix is accepted. */
  rrule: string;
  /** IANA time zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** The local date of the first possible occurrence, `YYYY-MM-DD` (the rule's DTSTART date). */
  startDate: string;
  /** The local start time of each occurrence, `HH:MM`. */
  startTime: string;
  /** Minutes from an occurrence's start to its due time. */
  dueWithinMinutes: number;
}

export interface Occurrence {
  startAt: Date;
  dueAt: Date;
  /** The start in the schedule's zone, ISO 8601 with its offset (`2026-03-30T09:00:00+02:00`). */
  localStart: string;
  localDue: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Keys a rule may not carry: the schedule gives its start and zone. */
const FORBIDDEN = /(^|;)\s*(DTSTART|TZID)\b/i;

export class RecurrenceError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const isTimeZone = (zone: string): boolean => zone.length > 0 && zone.length <= 64 && IANAZone.isValidZone(zone) && zone !== "UTC+0";

interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
}

function parseStart(startDate: string, startTime: string): Wall {
  const dm = DATE.exec(startDate);
  if (!dm || !DateTime.fromISO(startDate, { zone: "utc" }).isValid) throw new RecurrenceError("startDate", "startDate must be a date YYYY-MM-DD");
  if (Number(dm[1]) < 2000 || Number(dm[1]) > 2200) throw new RecurrenceError("startDate", "startDate must be between 2000-01-01 and 2200-12-31");
  const tm = TIME.exec(startTime);
  if (!tm) throw new RecurrenceError("startTime", "startTime must be a local time HH:MM (00:00 to 23:59)");
  return { y: Number(dm[1]), mo: Number(dm[2]), d: Number(dm[3]), h: Number(tm[1]), mi: Number(tm[2]) };
}

/** Wall-clock time as a Date whose UTC fields are the local fields (rrule's floating form). */
const wallDate = (w: Wall) => new Date(Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi));
const wallOf = (d: Date): Wall => ({ y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes() });

/**
 * The instant of a local wall-clock time in `zone`, by RFC 5545: of two, the first; in a gap, the
 * offset before it (so the time moves forward by the gap's length).
 */
function instantOf(w: Wall, zone: string): Date {
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  // The offsets in force a day either side: at most two, and a transition between them.
  const before = IANAZone.create(zone).offset(asUtc - 86_400_000);
  const after = IANAZone.create(zone).offset(asUtc + 86_400_000);
  const candidates = [before, after]
    .map((off) => asUtc - off * 60_000)
    .filter((t) => {
      const back = DateTime.fromMillis(t, { zone });
      return back.year === w.y && back.month === w.mo && back.day === w.d && back.hour === w.h && back.minute === w.mi;
    });
  if (candidates.length) return new Date(Math.min(...candidates));
  // A gap: read with the offset before it.
  return new Date(asUtc - before * 60_000);
}

function toOccurrence(start: Date, spec: { timeZone: string; dueWithinMinutes: number }): Occurrence {
  const dueAt = new Date(start.getTime() + spec.dueWithinMinutes * 60_000);
  const iso = (d: Date) => DateTime.fromJSDate(d, { zone: spec.timeZone }).toISO({ suppressMilliseconds: true })!;
  return { startAt: start, dueAt, localStart: iso(start), localDue: iso(dueAt) };
}

interface Compiled {
  rule: RRule;
  /** A date-time UNTIL: the last start is at or before this instant. */
  untilInstant: Date | null;
}

function untilOf(raw: string, parsed: Partial<Options>): { wall: Date | null; instant: Date | null } {
  const m = /(?:^|;)\s*UNTIL=([0-9TZ]+)/i.exec(raw);
  if (!m || !parsed.until) return { wall: null, instant: null };
  if (!m[1]!.includes("T")) {
    const u = parsed.until;
    return { wall: new Date(Date.UTC(u.getUTCFullYear(), u.getUTCMonth(), u.getUTCDate(), 23, 59, 59)), instant: null };
  }
  return { wall: null, instant: parsed.until };
}

const list = (v: unknown): number[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(Number) : [Number(v)]);
const PARTS: [keyof Options, string, number, number, boolean][] = [
  ["interval", "INTERVAL", 1, 1000, false],
  ["count", "COUNT", 1, 100_000, false],
  ["bymonth", "BYMONTH", 1, 12, false],
  ["bymonthday", "BYMONTHDAY", 1, 31, true],
  ["byyearday", "BYYEARDAY", 1, 366, true],
  ["byweekno", "BYWEEKNO", 1, 53, true],
  ["bysetpos", "BYSETPOS", 1, 366, true],
];

/**
 * The first part outside what RFC 5545 allows (or, for INTERVAL and COUNT, what a schedule
 * needs), as a message; null when all are in range. rrule itself loops without end on some
 * (INTERVAL=-1), so nothing reaches it unchecked.
 */
function outOfRange(p: Partial<Options>): string | null {
  for (const [key, name, min, max, signed] of PARTS) {
    for (const v of list(p[key])) {
      const ok = Number.isInteger(v) && (signed ? Math.abs(v) >= min && Math.abs(v) <= max : v >= min && v <= max);
      if (!ok) return `${name} must be ${signed ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`} (got ${v})`;
    }
  }
  return null;
}

/** Parses and checks `spec` (RecurrenceError naming the field when it cannot be used). */
export function compileRule(spec: Pick<RuleSpec, "rrule" | "timeZone" | "startDate" | "startTime">): Compiled {
  if (!isTimeZone(spec.timeZone)) throw new RecurrenceError("timeZone", `timeZone '${spec.timeZone}' is not an IANA time zone (e.g. Europe/Berlin)`);
  const start = parseStart(spec.startDate, spec.startTime);
  const raw = spec.rrule.trim().replace(/^RRULE:/i, "");
  if (!raw || FORBIDDEN.test(raw) || raw.includes("\n"))
    throw new RecurrenceError("recurrence.rrule", "recurrence.rrule must be one RRULE value (e.g. FREQ=DAILY) without DTSTART or TZID");
  let parsed: Partial<Options>;
  try {
    parsed = RRule.parseString(raw);
  } catch (err) {
    throw new RecurrenceError("recurrence.rrule", `recurrence.rrule does not parse: ${(err as Error).message}`);
  }
  if (parsed.freq === undefined || parsed.freq === null)
    throw new RecurrenceError("recurrence.rrule", "recurrence.rrule does not parse: FREQ is required (e.g. FREQ=DAILY)");
  if (parsed.freq > RRule.DAILY) throw new RecurrenceError("recurrence.rrule", "recurrence.rrule: FREQ must be YEARLY, MONTHLY, WEEKLY or DAILY");
  if (parsed.byhour !== undefined || parsed.byminute !== undefined || parsed.bysecond !== undefined)
    throw new RecurrenceError("recurrence.rrule", "recurrence.rrule: the time of day is startTime, not BYHOUR, BYMINUTE or BYSECOND");
  const bad = outOfRange(parsed);
  if (bad) throw new RecurrenceError("recurrence.rrule", `recurrence.rrule: ${bad}`);
  const until = untilOf(raw, parsed);
  let rule: RRule;
  try {
    rule = new RRule({ ...parsed, dtstart: wallDate(start), tzid: null, until: until.wall });
    rule.all((_d, i) => i < 1);
  } catch (err) {
    throw new RecurrenceError("recurrence.rrule", `recurrence.rrule does not parse: ${(err as Error).message}`);
  }
  return { rule, untilInstant: until.instant };
}

/** Margin for the wall-clock search: every zone's offset is within 14 hours of UTC. */
const MARGIN_MS = 2 * 86_400_000;

/**
 * The occurrences whose start is in [from, to), in order, at most `limit`. Nothing but the rule
 * and the zone decides them, so expanding the same range twice gives the same starts (the sweep's
 * exactly-once rests on it).
 */
export function expandRule(spec: RuleSpec, from: Date, to: Date, limit = 10_000): Occurrence[] {
  const { rule, untilInstant } = compileRule(spec);
  const out: Occurrence[] = [];
  const walls = rule.between(new Date(from.getTime() - MARGIN_MS), new Date(to.getTime() + MARGIN_MS), true);
  for (const w of walls) {
    const start = instantOf(wallOf(w), spec.timeZone);
    if (start < from || start >= to) continue;
    if (untilInstant && start > untilInstant) break;
    out.push(toOccurrence(start, spec));
    if (out.length >= limit) break;
  }
  return out;
}

/** The next `count` occurrences starting at or after `from` (the upcoming preview). */
export function nextOccurrences(spec: RuleSpec, from: Date, count: number): Occurrence[] {
  const out: Occurrence[] = [];
  let lo = from;
  // Widening windows: a yearly rule may have nothing for months; COUNT/UNTIL may end it.
  for (const days of [40, 400, 4_000, 40_000]) {
    const hi = new Date(from.getTime() + days * 86_400_000);
    out.push(...expandRule(spec, lo, hi, count - out.length));
    if (out.length >= count) break;
    lo = hi;
  }
  return out.slice(0, count);
}

/**
 * "N days after the last completion": the next start is `days` local days after the date the last
 * one was completed (in the schedule's zone), at startTime. Before any completion the first is at
 * startDate, startTime.
 */
export function afterCompletion(
  spec: { days: number; timeZone: string; startDate: string; startTime: string; dueWithinMinutes: number },
  lastCompletedAt: Date | null,
): Occurrence {
  if (!isTimeZone(spec.timeZone)) throw new RecurrenceError("timeZone", `timeZone '${spec.timeZone}' is not an IANA time zone (e.g. Europe/Berlin)`);
  const start = parseStart(spec.startDate, spec.startTime);
  if (!lastCompletedAt) return toOccurrence(instantOf(start, spec.timeZone), spec);
  const done = DateTime.fromJSDate(lastCompletedAt, { zone: spec.timeZone }).plus({ days: spec.days });
  return toOccurrence(instantOf({ y: done.year, mo: done.month, d: done.day, h: start.h, mi: start.mi }, spec.timeZone), spec);
}
