import { z } from "zod";

/** EmployeeInput fields a column can fill; `metadata.<key>` fills one key of metadata. */
const TEXT_FIELDS = [
  "externalEmployeeId",
  "firstName",
  "lastName",
  "displayName",
  "email",
  "phone",
  "jobTitle",
  "department",
  "hireDate",
  "terminationDate",
  "status",
  "updateMode",
  "supervisor.name",
  "supervisor.email",
  "userAccount.username",
] as const;

const isFieldPath = (f: string) => (TEXT_FIELDS as readonly string[]).includes(f) || /^metadata\.[^.]+$/.test(f);

const column = z.string().min(1, "a column name is required");
const names = z.union([z.string().min(1), z.array(z.string().min(1))]);
/** What to do with a value the map does not list: skip it with a warning, or use the value itself. */
const unmapped = z.enum(["skip", "keep"]).default("skip");

const valueList = {
  column,
  /** Several values in one cell, e.g. "WH1;MGR". JSON arrays need none. */
  separator: z.string().min(1).optional(),
  unmapped,
};

const MappingFile = z
  .object({
    /** Field -> input column (CSV header) or key (JSON; a dotted path reaches into nested objects). */
    columns: z
      .record(z.string(), column)
      .superRefine((cols, ctx) => {
        for (const f of Object.keys(cols)) {
          if (!isFieldPath(f))
            ctx.addIssue({ code: "custom", path: [f], message: `unknown field '${f}': expected one of ${TEXT_FIELDS.join(", ")} or metadata.<key>` });
        }
      })
      .default({}),
    /** Input status value -> ACTIVE, INACTIVE or TERMINATED; values it does not list are sent as they are. */
    status: z.record(z.string(), z.enum(["ACTIVE", "INACTIVE", "TERMINATED"])).optional(),
    /** Role names from a column; without `map` the values are the role names. */
    roles: z
      .object({ ...valueList, map: z.record(z.string(), names).optional() })
      .strict()
      .optional(),
    /** Groups from a column, by name (default) or external group id, with an optional member role for all. */
    groups: z
      .object({
        ...valueList,
        map: z.record(z.string(), names).optional(),
        by: z.enum(["groupName", "externalGroupId"]).default("groupName"),
        role: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Site ids from a column; a map entry may give the site role too. `role` is the default site role. */
    sites: z
      .object({
        ...valueList,
        map: z.record(z.string(), z.union([z.string().min(1), z.object({ id: z.string().min(1), role: z.string().min(1).optional() }).strict()])).optional(),
        role: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Sent with every employee: ask for a user account (null: none). */
    userAccount: z.object({ forcePasswordReset: z.boolean().optional(), sendWelcomeEmail: z.boolean().optional() }).strict().nullable().optional(),
    /** replace (server default) or additive, for every employee unless a column gives updateMode. */
    updateMode: z.enum(["replace", "additive"]).optional(),
    /** An empty cell: leave the field out (keep what the service has, default) or send null (clear it). */
    emptyValues: z.enum(["omit", "clear"]).default("omit"),
  })
  .strict();
export type Mapping = z.output<typeof MappingFile>;

/** Problems of a mapping file as lines ("roles.column: a column name is required"). */
export function parseMapping(value: unknown): { ok: true; mapping: Mapping } | { ok: false; problems: string[] } {
  const parsed = MappingFile.safeParse(value);
  if (parsed.success) return { ok: true, mapping: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "mapping"}: ${i.message}`) };
}

/** The input columns a mapping reads, to check them against a CSV header before sending anything. */
export function mappedColumns(m: Mapping): string[] {
  const cols = new Set(Object.values(m.columns));
  for (const list of [m.roles, m.groups, m.sites]) if (list) cols.add(list.column);
  return [...cols];
}

/**
 * The mapping used without a mapping file for a CSV: every column named like a field
 * (`email`, `supervisor.email`, `metadata.costCenter`) fills it, and `roles`, `groups`,
 * `sites` columns hold ";"-separated names, group names and site ids.
 */
export function mappingFromHeader(columns: string[]): Mapping {
  const m: Mapping = { columns: {}, emptyValues: "omit" };
  for (const c of columns) if (isFieldPath(c)) m.columns[c] = c;
  if (columns.includes("roles")) m.roles = { column: "roles", separator: ";", unmapped: "skip" };
  if (columns.includes("groups")) m.groups = { column: "groups", separator: ";", unmapped: "skip", by: "groupName" };
  if (columns.includes("sites")) m.sites = { column: "sites", separator: ";", unmapped: "skip" };
  return m;
}
