import type postgres from "postgres";
import { parseFilter, quote, type AttrPath, type FilterNode, type Test } from "./filter-parse.ts";
import { ScimError } from "./protocol.ts";

/**
 * SCIM filters (RFC 7644 section 3.4.2.2) as SQL: filter-parse.ts parses the filter, and each
 * attribute path it names becomes a condition on the SQL expression the resource's
 * FilterTarget gives for it, with every value a parameter. Comparisons follow the attribute's
 * type and caseExact as /Schemas publishes them (RFC 7643 section 7): strings compare without
 * case unless caseExact, dateTimes as instants (to the millisecond the resource shows),
 * booleans only with eq and ne. A filter that names an attribute the resource does not have,
 * or one it has but cannot filter on, or that compares an attribute with an operator or value
 * of the wrong kind, is a 400 invalidFilter ("the specified attribute and filter comparison
 * combination is not supported", section 3.12).
 */

export type ScalarType = "string" | "reference" | "boolean" | "dateTime";

export interface Scalar {
  kind: "scalar";
  /** SQL of the value (from this code only: never from a request). */
  sql: string;
  type: ScalarType;
  caseExact: boolean;
}

interface Complex {
  kind: "complex";
  /** Sub-attributes one can filter on, by lower-case name. */
  sub: Record<string, Scalar>;
  /**
   * Multi-valued: `present`, SQL true when the resource has the (one) value its sub-attributes
   * describe (a User's one e-mail); or `exists`, a `select 1 from … where …` over its values,
   * which the sub-attributes' SQL refers to (a group's members).
   */
  multi?: { present: string } | { exists: string };
}

export type FilterAttribute = Scalar | Complex;

export interface FilterTarget {
  resourceType: "User" | "Group";
  /** The resource's core schema URN (an attribute path may be qualified with it). */
  schema: string;
  /** By lower-case name. */
  attributes: Record<string, FilterAttribute>;
  /** Schema extensions' attributes: lower-case URN -> lower-case name -> attribute. */
  extensions: Record<string, Record<string, FilterAttribute>>;
  /** Whether /Schemas (or RFC 7643 section 3.1's common attributes) declares the attribute path: then it is not filterable, rather than unknown. */
  declares(path: string): boolean;
}

export const scalar = (sql: string, type: ScalarType = "string", caseExact = false): Scalar => ({ kind: "scalar", sql, type, caseExact });

type Fragment = postgres.PendingQuery<postgres.Row[]>;

function fail(detail: string): never {
  throw new ScimError(400, "invalidFilter", `Invalid filter: ${detail}`);
}

const own = <T>(map: Record<string, T>, name: string): T | undefined => (Object.hasOwn(map, name.toLowerCase()) ? map[name.toLowerCase()] : undefined);

const ORDER: Record<string, string> = { eq: "=", ne: "<>", gt: ">", ge: ">=", lt: "<", le: "<=" };

/**
 * An xsd:dateTime (RFC 7643 section 2.3.5), as an ISO 8601 instant: `2024-05-01T12:00:00Z`,
 * fractions of a second and an offset allowed, no offset meaning UTC; null when it is none.
 */
export function dateTimeOf(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years below 100 as 19xx
  at.setUTCHours(h, mi, s, 0);
  if (
    at.getUTCFullYear() !== y ||
    at.getUTCMonth() !== mo - 1 ||
    at.getUTCDate() !== d ||
    at.getUTCHours() !== h ||
    at.getUTCMinutes() !== mi ||
    at.getUTCSeconds() !== s
  )
    return null;
  const offset = m[8];
  if (offset && offset !== "Z" && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return null;
  return offset ? text : `${text}Z`;
}

/** An instant as Postgres reads it: ISO 8601, or ±infinity past the years 1 to 9999 (an offset can move a date there). */
const instant = (ms: number): string => {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  return y < 1 ? "-infinity" : y > 9999 ? "infinity" : d.toISOString();
};

class SqlFilter {
  constructor(
    private readonly sql: postgres.Sql,
    private readonly target: FilterTarget,
  ) {}

  /** An attribute path the target does not filter on: unknown, or declared but not filterable. */
  private unknown(path: string): never {
    return fail(
      this.target.declares(path)
        ? `filtering on ${quote(path)} is not supported`
        : `${quote(path)} is not an attribute of ${this.target.resourceType} (the attributes are listed at /Schemas)`,
    );
  }

  /** The attribute a top-level path names (its schema URN checked), and its label for errors. */
  private lookup(path: AttrPath): FilterAttribute {
    let attrs = this.target.attributes;
    if (path.uri !== undefined && path.uri.toLowerCase() !== this.target.schema.toLowerCase()) {
      const ext = own(this.target.extensions, path.uri);
      if (!ext) fail(`${quote(path.uri)} is not a schema of ${this.target.resourceType} resources (see /ResourceTypes)`);
      attrs = ext!;
    }
    return own(attrs, path.name) ?? this.unknown(path.uri !== undefined ? `${path.uri}:${path.name}` : path.name);
  }

  build(node: FilterNode, scope?: { attr: Complex; path: AttrPath }): Fragment {
    const sql = this.sql;
    switch (node.kind) {
      case "and":
      case "or": {
        const parts = node.filters.map((f) => this.build(f, scope));
        const op = sql.unsafe(node.kind);
        return sql`(${parts.reduce((a, b) => sql`${a} ${op} ${b}`)})`;
      }
      case "not":
        return sql`(not ${this.build(node.filter, scope)})`;
      case "test": {
        const { path, test } = node;
        if (scope) {
          // Inside a value filter: sub-attributes of the filtered attribute, by their bare name.
          const label = `${scope.path.text}.${path.text}`;
          if (path.uri !== undefined || path.sub !== undefined)
            fail(
              `inside ${quote(`${scope.path.text}[…]`)}, ${quote(path.text)} must be a sub-attribute of ${quote(scope.path.text)}, such as ${Object.keys(scope.attr.sub)[0]}`,
            );
          const s = own(scope.attr.sub, path.name) ?? this.unknown(label);
          return this.compare(s, test, label);
        }
        const a = this.lookup(path);
        if (a.kind === "scalar") {
          if (path.sub !== undefined) this.unknown(path.text);
          return this.compare(a, test, path.text);
        }
        if (path.sub === undefined) {
          // A multi-valued attribute without a sub-attribute: its presence, or its `value`.
          if (!a.multi) fail(`${quote(path.text)} is a complex attribute: filter on one of its sub-attributes, such as ${path.text}.${Object.keys(a.sub)[0]}`);
          if (test.op === "pr") return this.presence(a);
        }
        const subName = path.sub ?? "value";
        const s = own(a.sub, subName) ?? this.unknown(`${path.text}${path.sub === undefined ? ".value" : ""}`);
        return this.within(a, this.compare(s, test, path.sub === undefined ? `${path.text}.value` : path.text));
      }
      case "valuePath": {
        const { path } = node;
        const a = this.lookup(path);
        if (a.kind === "scalar" || !a.multi)
          return fail(`${quote(path.text)} is not multi-valued: a value filter ([…]) applies to a multi-valued attribute such as emails`);
        let cond = this.build(node.filter, { attr: a, path });
        if (node.sub) {
          const label = `${path.text}[…].${node.sub.name}`;
          const s = own(a.sub, node.sub.name) ?? this.unknown(`${path.text}.${node.sub.name}`);
          cond = sql`(${cond} and ${this.compare(s, node.sub.test, label)})`;
        }
        return this.within(a, cond);
      }
    }
  }

  /** A multi-valued attribute has a value. */
  private presence(a: Complex): Fragment {
    const m = a.multi!;
    return "present" in m ? this.sql`(${this.sql.unsafe(m.present)})` : this.sql`exists (${this.sql.unsafe(m.exists)})`;
  }

  /** A condition on sub-attributes, about one value of the attribute. */
  private within(a: Complex, cond: Fragment): Fragment {
    const m = a.multi;
    if (!m) return cond;
    return "present" in m ? this.sql`(${this.sql.unsafe(m.present)} and ${cond})` : this.sql`exists (${this.sql.unsafe(m.exists)} and ${cond})`;
  }

  /** One comparison (never null: an unassigned attribute matches nothing but `not`). */
  private compare(s: Scalar, test: Test, label: string): Fragment {
    const sql = this.sql;
    const col = sql.unsafe(s.sql);
    const text = s.type === "string" || s.type === "reference";
    // pr: assigned and not empty (RFC 7643 section 2.5: null and "" are unassigned).
    const present = text ? sql`coalesce(${col}, '') <> ''` : sql`(${col} is not null)`;
    if (test.op === "pr") return present;
    const { op, value } = test;
    if (value.kind === "null") {
      // RFC 7643 section 2.5: null is the same as unassigned.
      if (op === "eq") return sql`(not ${present})`;
      if (op === "ne") return present;
      return fail(`${quote(label)} ${op} null: null compares with eq or ne only`);
    }
    let cond: Fragment;
    if (s.type === "boolean") {
      // gt, ge, lt and le on a boolean are an invalidFilter (RFC 7644 section 3.4.2.2); co, sw and ew mean nothing for it.
      if (op !== "eq" && op !== "ne") fail(`${quote(label)} is a boolean: compare it with eq or ne`);
      if (value.kind !== "boolean") fail(`${quote(label)} is a boolean: compare it with true or false`);
      cond = sql`${col} ${sql.unsafe(ORDER[op]!)} ${value.kind === "boolean" && value.value}`;
    } else if (s.type === "dateTime") {
      if (!ORDER[op]) fail(`${quote(label)} is a dateTime: compare it with eq, ne, gt, ge, lt or le`);
      const at = value.kind === "string" ? dateTimeOf(value.value) : null;
      if (at === null) fail(`${quote(label)} is a dateTime: compare it with one such as "2024-05-01T12:00:00Z" (xsd:dateTime, RFC 7643 section 2.3.5)`);
      // To the millisecond, as resources show their dates: the column's instant within [from, until)
      // of the value's millisecond, as a range on the column itself (its indexes stay usable).
      const ms = new Date(at!).getTime();
      const [lo, hi] = [instant(ms), instant(ms + 1)];
      const range = {
        eq: sql`${col} >= ${lo}::timestamptz and ${col} < ${hi}::timestamptz`,
        gt: sql`${col} >= ${hi}::timestamptz`,
        ge: sql`${col} >= ${lo}::timestamptz`,
        lt: sql`${col} < ${lo}::timestamptz`,
        le: sql`${col} < ${hi}::timestamptz`,
      };
      cond = op === "ne" ? sql`not (${range.eq})` : range[op as keyof typeof range];
    } else {
      if (value.kind !== "string") return fail(`${quote(label)} is a string: compare it with a string in double quotes`);
      const v = s.caseExact ? value.value : value.value.toLowerCase();
      const c = s.caseExact ? col : sql`lower(${col})`;
      if (op === "co") cond = sql`strpos(${c}, ${v}) > 0`;
      else if (op === "sw") cond = sql`starts_with(${c}, ${v})`;
      else if (op === "ew")
        cond = sql`right(${c}, ${[...v].length}) = ${v}`; // characters (code points), as Postgres counts them
      else cond = sql`${c} ${sql.unsafe(ORDER[op]!)} ${v}`;
    }
    return sql`coalesce(${cond}, false)`;
  }
}

/**
 * The filter as one SQL condition, parenthesized so that a caller's `org = $1 and ${filter}`
 * keeps every OR branch inside the organization; `true` without a filter. An empty filter is
 * not the absence of one: it is malformed (400).
 */
export function filterToSql(sql: postgres.Sql, filter: string | undefined, target: FilterTarget): Fragment {
  if (filter === undefined) return sql`true`;
  return sql`(${new SqlFilter(sql, target).build(parseFilter(filter))})`;
}
