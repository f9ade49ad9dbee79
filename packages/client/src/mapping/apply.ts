import type { Mapping } from "./schema.ts";

export interface MappedRecord {
  /** The employee as it will be sent (validated first with the server's own rules). */
  employee: Record<string, unknown>;
  /** Values the mapping could not place (reported in the errors CSV as warnings, the row is still sent). */
  warnings: string[];
}

/** A key of a record: the literal key first, else a dotted path into nested objects (JSON input). */
export function lookup(data: Record<string, unknown>, column: string): unknown {
  if (Object.hasOwn(data, column)) return data[column];
  if (!column.includes(".")) return undefined;
  let cur: unknown = data;
  for (const part of column.split(".")) {
    if (!cur || typeof cur !== "object" || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
/** Numbers and booleans in JSON input become text (phone numbers and ids are often numbers there). */
const asText = (v: unknown) => (typeof v === "number" || typeof v === "boolean" ? String(v) : typeof v === "string" ? v.trim() : v);

/** The values of a list column: a JSON array as it is, a text split on the separator, trimmed, empties dropped. */
function listValues(v: unknown, separator: string | undefined): string[] {
  if (isEmpty(v)) return [];
  const items = Array.isArray(v) ? v.map(asText) : separator ? String(asText(v)).split(separator) : [asText(v)];
  return items
    .filter((x): x is string => typeof x === "string")
    .map((x) => x.trim())
    .filter((x) => x !== "");
}

/** Each value through the map; unlisted values are kept or skipped with a warning. */
function translate<T>(
  values: string[],
  map: Record<string, T> | undefined,
  unmapped: "skip" | "keep",
  what: string,
  column: string,
  warnings: string[],
  keep: (v: string) => T,
): T[] {
  const out: T[] = [];
  for (const v of values) {
    if (!map) out.push(keep(v));
    else if (Object.hasOwn(map, v)) out.push(map[v]!);
    else if (unmapped === "keep") out.push(keep(v));
    else warnings.push(`Value '${v}' of column '${column}' has no ${what} mapping, skipped`);
  }
  return out;
}

const flat = <T>(xs: (T | T[])[]): T[] => xs.flatMap((x) => (Array.isArray(x) ? x : [x]));
const unique = <T>(xs: T[], key: (x: T) => string = String): T[] => [...new Map(xs.map((x) => [key(x), x])).values()];

/**
 * One input record as an EmployeeInput, following the mapping file. Only what the mapping
 * names is sent; everything else in the record is ignored.
 */
export function mapRecord(data: Record<string, unknown>, m: Mapping): MappedRecord {
  const employee: Record<string, unknown> = {};
  const warnings: string[] = [];
  const clear = m.emptyValues === "clear";
  const supervisor: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  let userAccount: Record<string, unknown> | null | undefined = m.userAccount === null ? undefined : m.userAccount ? { ...m.userAccount } : undefined;
  if (m.updateMode) employee.updateMode = m.updateMode;

  for (const [field, column] of Object.entries(m.columns)) {
    const raw = lookup(data, column);
    if (field.startsWith("metadata.")) {
      if (!isEmpty(raw)) metadata[field.slice("metadata.".length)] = typeof raw === "string" ? raw.trim() : raw;
      continue;
    }
    if (isEmpty(raw)) {
      // The supervisor's parts and the username have no "clear" of their own: leaving them out is all there is.
      if (clear && !field.includes(".") && raw !== undefined) employee[field] = null;
      continue;
    }
    let value = asText(raw);
    if (field === "status" && m.status && typeof value === "string" && Object.hasOwn(m.status, value)) value = m.status[value];
    if (field.startsWith("supervisor.")) supervisor[field.slice("supervisor.".length)] = value;
    else if (field === "userAccount.username") userAccount = { ...userAccount, username: value };
    else employee[field] = value;
  }

  if (Object.keys(supervisor).length) employee.supervisor = supervisor;
  else if (clear && Object.keys(m.columns).some((f) => f.startsWith("supervisor."))) employee.supervisor = null;
  if (Object.keys(metadata).length) employee.metadata = metadata;
  else if (clear && Object.keys(m.columns).some((f) => f.startsWith("metadata."))) employee.metadata = null;
  if (userAccount) employee.userAccount = userAccount;

  if (m.roles) {
    const values = listValues(lookup(data, m.roles.column), m.roles.separator);
    employee.roles = unique(flat(translate(values, m.roles.map, m.roles.unmapped, "roles", m.roles.column, warnings, (v) => v)));
  }
  if (m.groups) {
    const g = m.groups;
    const names = unique(flat(translate(listValues(lookup(data, g.column), g.separator), g.map, g.unmapped, "groups", g.column, warnings, (v) => v)));
    employee.groups = names.map((name) => ({ [g.by]: name, ...(g.role ? { role: g.role } : {}) }));
  }
  if (m.sites) {
    const s = m.sites;
    const sites = translate(listValues(lookup(data, s.column), s.separator), s.map, s.unmapped, "sites", s.column, warnings, (v) => v);
    const assignments = sites
      .map((x) => (typeof x === "string" ? { id: x } : x))
      .map((x) => ({ id: x.id, ...((x.role ?? s.role) ? { role: x.role ?? s.role } : {}) }));
    employee.sites = unique(assignments, (a) => a.id);
  }
  return { employee, warnings };
}
