/** Reading answer and condition values: input kinds, numbers, ISO dates, booleans, selected options. */
import type { AnswerInput, InputKind, LogicOption, LogicQuestion } from "./types.ts";

const KIND_BY_INPUT_TYPE: Readonly<Record<string, InputKind>> = {
  SELECT: "select",
  RADIO: "select",
  CHECKBOX: "select",
  DROPDOWN: "select",
  MULTI_SELECT: "multi",
  MULTISELECT: "multi",
  CHECKBOXES: "multi",
  TEXT: "text",
  NUMBER: "number",
  DATE: "date",
  DATETIME: "date",
  DATE_TIME: "date",
  BOOLEAN: "boolean",
};

/** Input kind of an inputType (case-insensitive); anything unknown is text. */
export function inputKind(inputType: unknown): InputKind {
  if (typeof inputType !== "string") return "text";
  const normalized = inputType
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
  return KIND_BY_INPUT_TYPE[normalized] ?? "text";
}

export function isChoiceKind(kind: InputKind): boolean {
  return kind === "select" || kind === "multi";
}

function present(v: unknown): boolean {
  return v !== null && v !== undefined;
}

/** Whether an answer carries a value (see the package doc comment for the exact rule). */
export function hasValue(a: AnswerInput | null | undefined): boolean {
  if (a === null || typeof a !== "object") return false;
  if (typeof a.answerText === "string" && a.answerText.trim() !== "") return true;
  if (present(a.answerNumber) || present(a.answerBoolean) || present(a.answerDate)) return true;
  if (present(a.answerJson) && !(Array.isArray(a.answerJson) && a.answerJson.length === 0)) return true;
  return present(a.responseOptionId) || present(a.templateOptionId);
}

/** A string for a scalar (string, finite number, boolean); null otherwise. */
export function scalarString(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "boolean") return String(v);
  return null;
}

/**
 * Readable rendering of any value for messages: a string as it is, anything else as JSON; what
 * JSON cannot write by its type. Never String() of an object or a template literal over one:
 * both throw when its toString and valueOf are not callable (`{"toString": 1}` in a body).
 */
export function show(v: unknown): string {
  if (typeof v === "string") return v;
  try {
    const json = JSON.stringify(v);
    if (json !== undefined) return json;
  } catch {
    // A cycle or a BigInt (not from a JSON body): named by type below.
  }
  if (Array.isArray(v)) return "an array";
  if (v !== null && typeof v === "object") return "an object";
  if (typeof v === "function") return "a function";
  return String(v);
}

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number, or a string holding a decimal number; null otherwise. */
export function parseNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string") return null;
  const s = v.trim();
  if (!NUMERIC.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export interface ParsedDate {
  /** Milliseconds since the epoch; a date-only value is midnight UTC, a date-time without offset is read as UTC. */
  instant: number;
  dateOnly: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Strict ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm[:ss[.fff]][Z|±HH[:MM]]); null otherwise. */
export function parseIsoDate(v: unknown): ParsedDate | null {
  if (typeof v !== "string") return null;
  const m = ISO_DATE.exec(v.trim());
  if (!m) return null;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const hour = hs === undefined ? 0 : Number(hs);
  const minute = mis === undefined ? 0 : Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return { instant: d.getTime() - offsetMinutes * 60_000, dateOnly: hs === undefined };
}

const DAY_MS = 86_400_000;

/** Same instant when both carry a time; same UTC calendar day when either is date-only. */
export function sameDate(a: ParsedDate, b: ParsedDate): boolean {
  if (a.dateOnly || b.dateOnly) return Math.floor(a.instant / DAY_MS) === Math.floor(b.instant / DAY_MS);
  return a.instant === b.instant;
}

/** true/false (also "true"/"false"/"yes"/"no" when allowYesNo), case-insensitive; null otherwise. */
export function parseBoolean(v: unknown, allowYesNo: boolean): boolean | null {
  if (typeof v === "boolean") return v;
  if (typeof v !== "string") return null;
  const s = v.trim().toLowerCase();
  if (s === "true" || (allowYesNo && s === "yes")) return true;
  if (s === "false" || (allowYesNo && s === "no")) return false;
  return null;
}

/** Numeric value of an answer: a finite answerNumber, else a numeric answerText. */
export function answerNumeric(a: AnswerInput): number | null {
  if (typeof a.answerNumber === "number" && Number.isFinite(a.answerNumber)) return a.answerNumber;
  return parseNumber(a.answerText);
}

/** Date value of an answer: answerDate when given, else answerText. */
export function answerDateValue(a: AnswerInput): ParsedDate | null {
  return present(a.answerDate) ? parseIsoDate(a.answerDate) : parseIsoDate(a.answerText);
}

/** Boolean value of an answer: answerBoolean, else answerText "true"/"false". */
export function answerBooleanValue(a: AnswerInput): boolean | null {
  if (typeof a.answerBoolean === "boolean") return a.answerBoolean;
  return parseBoolean(a.answerText, false);
}

/** The name a token gives an option (an option id or value, trimmed); undefined when it cannot name one. */
export function optionName(token: unknown): string | undefined {
  return scalarString(token)?.trim();
}

export interface Selection {
  /** Distinct selected options, in the order first named. */
  options: LogicOption[];
  /** Tokens naming no option of the question, rendered for messages. */
  unresolved: string[];
}

/** Option tokens of a choice answer: option ids, answerText, answerJson (array or single value). */
function optionTokens(a: AnswerInput): unknown[] {
  const tokens: unknown[] = [];
  if (present(a.responseOptionId)) tokens.push(a.responseOptionId);
  if (present(a.templateOptionId)) tokens.push(a.templateOptionId);
  if (typeof a.answerText === "string" && a.answerText.trim() !== "") tokens.push(a.answerText);
  // A loop, not push(...array): spreading a very long array overflows the call stack.
  if (Array.isArray(a.answerJson)) {
    for (const v of a.answerJson as unknown[]) tokens.push(v);
  } else if (present(a.answerJson)) {
    tokens.push(a.answerJson);
  }
  return tokens;
}

/**
 * The options a choice answer selects, plus the tokens that name no option. Linear in tokens plus
 * options (maps and sets, not list scans): answerJson may carry many tokens.
 */
export function selectedOptions(q: LogicQuestion, a: AnswerInput): Selection {
  const byId = new Map<string, LogicOption>();
  const byValue = new Map<string, LogicOption>();
  for (const o of q.options) {
    if (!byId.has(o.id)) byId.set(o.id, o);
    if (!byValue.has(o.value)) byValue.set(o.value, o);
  }
  const options = new Set<LogicOption>();
  const unresolved = new Set<string>();
  for (const token of optionTokens(a)) {
    const name = optionName(token);
    // A token names an option by id first, then by value.
    const option = name === undefined ? undefined : (byId.get(name) ?? byValue.get(name));
    if (option === undefined) unresolved.add(show(token));
    else options.add(option);
  }
  return { options: [...options], unresolved: [...unresolved] };
}

/** Values of an is_one_of / is_not_one_of condition: an array, or a comma-separated string (trimmed). */
export function conditionList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v as unknown[];
  if (typeof v === "string")
    return v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  if (v === null || v === undefined) return [];
  return [v];
}
