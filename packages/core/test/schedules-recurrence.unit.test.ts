import { describe, expect, it } from "vitest";
import { afterCompletion, compileRule, expandRule, nextOccurrences, RecurrenceError, type RuleSpec } from "../src/schedules/recurrence.ts";

const spec = (s: Partial<RuleSpec>): RuleSpec => ({
  rrule: "FREQ=DAILY",
  timeZone: "Europe/Berlin",
  startDate: "2026-01-01",
  startTime: "09:00",
  dueWithinMinutes: 60,
  ...s,
});
const utc = (iso: string) => new Date(iso);
const starts = (s: Partial<RuleSpec>, from: string, to: string) => expandRule(spec(s), utc(from), utc(to)).map((o) => o.startAt.toISOString());
const locals = (s: Partial<RuleSpec>, from: string, to: string) => expandRule(spec(s), utc(from), utc(to)).map((o) => o.localStart);

describe("recurrence expansion (RFC 5545 in an IANA zone)", () => {
  it.each([
    // [what, spec, from, to, expected local starts]
    [
      "09:00 Europe/Berlin daily stays 09:00 local across spring forward (29 March 2026)",
      {},
      "2026-03-28T00:00:00Z",
      "2026-03-31T00:00:00Z",
      ["2026-03-28T09:00:00+01:00", "2026-03-29T09:00:00+02:00", "2026-03-30T09:00:00+02:00"],
    ],
    [
      "09:00 Europe/Berlin daily stays 09:00 local across fall back (25 October 2026)",
      {},
      "2026-10-24T00:00:00Z",
      "2026-10-27T00:00:00Z",
      ["2026-10-24T09:00:00+02:00", "2026-10-25T09:00:00+01:00", "2026-10-26T09:00:00+01:00"],
    ],
    [
      "02:30 on the spring-forward day does not exist: read with the offset before the gap (03:30 CEST)",
      { startTime: "02:30" },
      "2026-03-28T00:00:00Z",
      "2026-03-31T00:00:00Z",
      ["2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"],
    ],
    [
      "02:30 on the fall-back day occurs twice: the first (CEST)",
      { startTime: "02:30" },
      "2026-10-25T00:00:00Z",
      "2026-10-26T00:00:00Z",
      ["2026-10-25T02:30:00+02:00"],
    ],
    [
      "monthly on the 31st skips months without one",
      { rrule: "FREQ=MONTHLY;BYMONTHDAY=31", timeZone: "UTC" },
      "2026-01-01T00:00:00Z",
      "2026-08-01T00:00:00Z",
      ["2026-01-31T09:00:00Z", "2026-03-31T09:00:00Z", "2026-05-31T09:00:00Z", "2026-07-31T09:00:00Z"],
    ],
    [
      "BYMONTHDAY=-1 is the last day of every month",
      { rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", timeZone: "UTC" },
      "2026-01-01T00:00:00Z",
      "2026-05-01T00:00:00Z",
      ["2026-01-31T09:00:00Z", "2026-02-28T09:00:00Z", "2026-03-31T09:00:00Z", "2026-04-30T09:00:00Z"],
    ],
    [
      "yearly from 29 February occurs in leap years only",
      { rrule: "FREQ=YEARLY", startDate: "2024-02-29", timeZone: "UTC" },
      "2024-01-01T00:00:00Z",
      "2033-01-01T00:00:00Z",
      ["2024-02-29T09:00:00Z", "2028-02-29T09:00:00Z", "2032-02-29T09:00:00Z"],
    ],
    [
      "COUNT ends the rule",
      { rrule: "FREQ=DAILY;COUNT=3" },
      "2025-12-01T00:00:00Z",
      "2026-02-01T00:00:00Z",
      ["2026-01-01T09:00:00+01:00", "2026-01-02T09:00:00+01:00", "2026-01-03T09:00:00+01:00"],
    ],
    [
      "a date-time UNTIL is an instant: the last start at or before it",
      { rrule: "FREQ=DAILY;UNTIL=20260103T080000Z" },
      "2025-12-01T00:00:00Z",
      "2026-02-01T00:00:00Z",
      ["2026-01-01T09:00:00+01:00", "2026-01-02T09:00:00+01:00", "2026-01-03T09:00:00+01:00"],
    ],
    [
      "a date-time UNTIL one minute before a start excludes it",
      { rrule: "FREQ=DAILY;UNTIL=20260103T075900Z" },
      "2025-12-01T00:00:00Z",
      "2026-02-01T00:00:00Z",
      ["2026-01-01T09:00:00+01:00", "2026-01-02T09:00:00+01:00"],
    ],
    [
      "a date-only UNTIL includes that local date",
      { rrule: "FREQ=DAILY;UNTIL=20260102" },
      "2025-12-01T00:00:00Z",
      "2026-02-01T00:00:00Z",
      ["2026-01-01T09:00:00+01:00", "2026-01-02T09:00:00+01:00"],
    ],
    [
      "every third day",
      { rrule: "FREQ=DAILY;INTERVAL=3" },
      "2026-01-01T00:00:00Z",
      "2026-01-11T00:00:00Z",
      ["2026-01-01T09:00:00+01:00", "2026-01-04T09:00:00+01:00", "2026-01-07T09:00:00+01:00", "2026-01-10T09:00:00+01:00"],
    ],
    [
      "weekly on Monday and Wednesday every second week",
      { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", startDate: "2026-01-05" },
      "2026-01-01T00:00:00Z",
      "2026-01-25T00:00:00Z",
      ["2026-01-05T09:00:00+01:00", "2026-01-07T09:00:00+01:00", "2026-01-19T09:00:00+01:00", "2026-01-21T09:00:00+01:00"],
    ],
    [
      "America/New_York across its own spring forward (8 March 2026)",
      { timeZone: "America/New_York", startTime: "07:15" },
      "2026-03-07T00:00:00Z",
      "2026-03-10T00:00:00Z",
      ["2026-03-07T07:15:00-05:00", "2026-03-08T07:15:00-04:00", "2026-03-09T07:15:00-04:00"],
    ],
  ] as const)("%s", (_what, s, from, to, expected) => {
    expect(locals(s, from, to)).toEqual(expected);
  });

  it("09:00 Berlin is 08:00 UTC in winter and 07:00 UTC in summer", () => {
    expect(starts({}, "2026-03-29T00:00:00Z", "2026-03-30T00:00:00Z")).toEqual(["2026-03-29T07:00:00.000Z"]);
    expect(starts({}, "2026-03-28T00:00:00Z", "2026-03-29T00:00:00Z")).toEqual(["2026-03-28T08:00:00.000Z"]);
  });

  it("due is start + the window, in absolute minutes (also across a change)", () => {
    const [o] = expandRule(spec({ startTime: "01:00", dueWithinMinutes: 180 }), utc("2026-03-29T00:00:00Z"), utc("2026-03-30T00:00:00Z"));
    expect(o!.localStart).toBe("2026-03-29T01:00:00+01:00");
    expect(o!.localDue).toBe("2026-03-29T05:00:00+02:00");
    expect(o!.dueAt.getTime() - o!.startAt.getTime()).toBe(180 * 60_000);
  });

  it("the range is half-open [from, to) and the same range gives the same starts", () => {
    const a = starts({}, "2026-01-02T08:00:00Z", "2026-01-04T08:00:00Z");
    expect(a).toEqual(["2026-01-02T08:00:00.000Z", "2026-01-03T08:00:00.000Z"]);
    expect(starts({}, "2026-01-02T08:00:00Z", "2026-01-04T08:00:00Z")).toEqual(a);
  });

  it("nextOccurrences finds a yearly rule's next starts far ahead, and stops when COUNT ends it", () => {
    const next = nextOccurrences(spec({ rrule: "FREQ=YEARLY", startDate: "2024-02-29" }), utc("2024-03-01T00:00:00Z"), 2);
    expect(next.map((o) => o.localStart)).toEqual(["2028-02-29T09:00:00+01:00", "2032-02-29T09:00:00+01:00"]);
    expect(nextOccurrences(spec({ rrule: "FREQ=DAILY;COUNT=2" }), utc("2025-01-01T00:00:00Z"), 5)).toHaveLength(2);
  });

  it.each([
    ["FREQ=SOMETIMES", "recurrence.rrule"],
    ["INTERVAL=2", "recurrence.rrule"],
    ["FREQ=HOURLY", "recurrence.rrule"],
    ["FREQ=DAILY;BYHOUR=9", "recurrence.rrule"],
    ["DTSTART:20260101T090000Z\nRRULE:FREQ=DAILY", "recurrence.rrule"],
    ["", "recurrence.rrule"],
    ["FREQ=DAILY;INTERVAL=0", "recurrence.rrule"],
    ["FREQ=DAILY;INTERVAL=-1", "recurrence.rrule"],
    ["FREQ=MONTHLY;BYMONTHDAY=32", "recurrence.rrule"],
    ["FREQ=DAILY;COUNT=0", "recurrence.rrule"],
    ["FREQ=MONTHLY;BYSETPOS=400;BYDAY=MO", "recurrence.rrule"],
    ["FREQ=WEEKLY;BYDAY=XX", "recurrence.rrule"],
    ["FREQ=DAILY;FOO=1", "recurrence.rrule"],
  ])("the rule %j is refused naming %s", (rrule, field) => {
    expect(() => compileRule(spec({ rrule }))).toThrow(RecurrenceError);
    try {
      compileRule(spec({ rrule }));
    } catch (err) {
      expect((err as RecurrenceError).field).toBe(field);
    }
  });

  it.each([
    [{ timeZone: "Europe/Atlantis" }, "timeZone"],
    [{ timeZone: "" }, "timeZone"],
    [{ startTime: "24:00" }, "startTime"],
    [{ startTime: "9:00" }, "startTime"],
    [{ startDate: "2026-02-30" }, "startDate"],
    [{ startDate: "1900-01-01" }, "startDate"],
  ])("%j is refused naming %s", (s, field) => {
    expect(() => compileRule(spec(s))).toThrow(expect.objectContaining({ field }));
  });

  it("a rule that never occurs (30 February) gives nothing, and ends", () => {
    expect(nextOccurrences(spec({ rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" }), utc("2026-01-01T00:00:00Z"), 3)).toEqual([]);
  });

  it("an RRULE: prefix is accepted", () => {
    expect(locals({ rrule: "RRULE:FREQ=DAILY;COUNT=1" }, "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")).toEqual(["2026-01-01T09:00:00+01:00"]);
  });
});

describe("N days after the last completion", () => {
  const s = { days: 21, timeZone: "Europe/Berlin", startDate: "2026-03-02", startTime: "08:00", dueWithinMinutes: 480 };
  it("before any completion: startDate at startTime", () => {
    expect(afterCompletion(s, null).localStart).toBe("2026-03-02T08:00:00+01:00");
  });
  it("21 local days after the completion's local date, at startTime, across the spring change", () => {
    // Completed on 10 March 23:30 Berlin (22:30 UTC): the local date is 10 March.
    const next = afterCompletion(s, utc("2026-03-10T22:30:00Z"));
    expect(next.localStart).toBe("2026-03-31T08:00:00+02:00");
    expect(next.localDue).toBe("2026-03-31T16:00:00+02:00");
  });
  it("the local date decides, not the UTC date", () => {
    // 23:30 UTC on 10 March is 00:30 on 11 March in Berlin.
    expect(afterCompletion(s, utc("2026-03-10T23:30:00Z")).localStart).toBe("2026-04-01T08:00:00+02:00");
  });
});
