import type postgres from "postgres";
import { scim, ScimError } from "./protocol.ts";

/**
 * SCIM filters (RFC 7644 section 3.4.2.2) as SQL: scimmy parses the filter into ORs of ANDs of
 * attribute comparisons; each attribute must be one of the resource's filterable attributes
 * below (anything else is a 400 invalidFilter), and each becomes a condition on its column, with
 * the value as a parameter. Strings compare without case (userName and e-mails are not
 * case-exact in RFC 7643), dates as instants, booleans only for equality.
 */

export type Kind = "text" | "date" | "bool" | "exists";

export interface Attribute {
  /** SQL of the column (from this file only: never from a request). */
  column: string;
  kind: Kind;
}

/** attribute path (lower case) -> column, per resource. */
export type AttributeMap = Record<string, Attribute>;

type Leaf = [string, unknown?] | ["not", string, unknown?];
type Expression = Leaf | Leaf[] | { [sub: string]: Expression };

const COMPARE: Record<string, string> = { eq: "=", ne: "<>", gt: ">", ge: ">=", lt: "<", le: "<=" };

function condition(sql: postgres.Sql, path: string, attr: Attribute | undefined, leaf: Leaf): postgres.PendingQuery<postgres.Row[]> {
  if (!attr) throw new ScimError(400, "invalidFilter", `Filtering on '${path}' is not supported`);
  const negated = leaf[0] === "not";
  const [op, value] = (negated ? leaf.slice(1) : leaf) as [string, unknown];
  const col = sql.unsafe(attr.column);
  let cond: postgres.PendingQuery<postgres.Row[]>;
  if (attr.kind === "exists") {
    if (op !== "eq") throw new ScimError(400, "invalidFilter", `Only 'eq' is supported for '${path}'`);
    cond = sql`exists (${sql.unsafe(attr.column)} ${sql`${String(value)}`})`;
  } else if (op === "pr") cond = attr.kind === "text" ? sql`coalesce(${col}, '') <> ''` : sql`${col} is not null`;
  else if (attr.kind === "bool") {
    const b = typeof value === "string" ? value.toLowerCase() === "true" : value;
    if (typeof b !== "boolean" || (op !== "eq" && op !== "ne")) throw new ScimError(400, "invalidFilter", `'${path}' compares with eq or ne and true or false`);
    cond = op === "eq" ? sql`${col} = ${b}` : sql`${col} <> ${b}`;
  } else if (attr.kind === "date") {
    const at = typeof value === "string" ? new Date(value) : null;
    if (!at || Number.isNaN(at.getTime()) || !COMPARE[op]) throw new ScimError(400, "invalidFilter", `'${path}' compares with eq, ne, gt, ge, lt or le and an ISO 8601 date-time`);
    cond = sql`${col} ${sql.unsafe(COMPARE[op]!)} ${at.toISOString()}::timestamptz`;
  } else {
    if (typeof value !== "string" && typeof value !== "number") throw new ScimError(400, "invalidFilter", `'${path}' compares with a string`);
    const v = String(value).toLowerCase();
    const lower = sql`lower(${col})`;
    if (op === "co") cond = sql`strpos(${lower}, ${v}) > 0`;
    else if (op === "sw") cond = sql`starts_with(${lower}, ${v})`;
    else if (op === "ew") cond = sql`right(${lower}, ${v.length}) = ${v}`;
    else if (COMPARE[op]) cond = sql`${lower} ${sql.unsafe(COMPARE[op]!)} ${v}`;
    else throw new ScimError(400, "invalidFilter", `Operator '${op}' is not supported`);
  }
  return negated ? sql`not coalesce(${cond}, false)` : sql`coalesce(${cond}, false)`;
}

/** One attribute's expression: a comparison, several on the same attribute, or sub-attributes (`name.givenName`, `emails[type eq "work"].value`). */
function expression(sql: postgres.Sql, path: string, expr: Expression, attrs: AttributeMap): postgres.PendingQuery<postgres.Row[]>[] {
  if (Array.isArray(expr)) {
    const leaves = (Array.isArray(expr[0]) ? expr : [expr]) as Leaf[];
    return leaves.map((leaf) => condition(sql, path, attributeOf(attrs, path), leaf));
  }
  // A value path on the work e-mail: `emails[type eq "work"]` is the one e-mail an employee has.
  const sub = Object.fromEntries(Object.entries(expr).map(([k, v]) => [k.toLowerCase(), v]));
  if (path.toLowerCase() === "emails" && sub.type !== undefined) {
    const type = sub.type as Leaf;
    if (type[0] !== "eq" || typeof type[1] !== "string") throw new ScimError(400, "invalidFilter", "emails[...] filters on type eq \"work\"");
    if (type[1].toLowerCase() !== "work") return [sql`false`];
    delete sub.type;
    if (Object.keys(sub).length === 0) return [condition(sql, `${path}.value`, attributeOf(attrs, `${path}.value`), ["pr"])]; // has a work e-mail
  }
  return Object.entries(sub).flatMap(([k, v]) => expression(sql, `${path}.${k}`, v, attrs));
}

/** Only the map's own entries: `constructor` or `__proto__` name no attribute. */
const attributeOf = (attrs: AttributeMap, path: string): Attribute | undefined => (Object.hasOwn(attrs, path.toLowerCase()) ? attrs[path.toLowerCase()] : undefined);

/**
 * The filter as one SQL condition, parenthesized so that a caller's `org = $1 and ${filter}`
 * keeps every OR branch inside the organization; `true` without one.
 */
export function filterToSql(sql: postgres.Sql, filter: string | undefined, attrs: AttributeMap): postgres.PendingQuery<postgres.Row[]> {
  if (filter === undefined || filter.trim() === "") return sql`true`;
  let parsed: Record<string, Expression>[];
  try {
    parsed = new (scim().Types.Filter)(filter) as unknown as Record<string, Expression>[];
  } catch (err) {
    throw new ScimError(400, "invalidFilter", err instanceof Error ? err.message : "Invalid filter");
  }
  const ors = parsed.map((and) => {
    const parts = Object.entries(and).flatMap(([path, expr]) => expression(sql, path, expr, attrs));
    return parts.reduce((a, b) => sql`${a} and ${b}`);
  });
  return sql`(${ors.map((o) => sql`(${o})`).reduce((a, b) => sql`${a} or ${b}`)})`;
}
