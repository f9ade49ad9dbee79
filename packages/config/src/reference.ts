import { z } from "zod";

/** One setting of an env shape, as the configuration reference shows it. */
export interface SettingInfo {
  name: string;
  /** The default as the variable would be written, or undefined when there is none. */
  default: string | undefined;
  description: string;
  /** e.g. "1 to 65535", "fs, s3", "true or false". */
  allowed: string | undefined;
  /** Marked `.meta({ secret: true })`: keep it in a secret store (it is never quoted in errors anyway). */
  secret: boolean;
}

type Wrapped = { _zod: { def: { type: string; innerType?: z.ZodType; defaultValue?: unknown; entries?: Record<string, string> } } };
const defOf = (schema: z.ZodType) => (schema as unknown as Wrapped)._zod.def;

/** The enum values under optional/default wrappers, if the schema is an enum. */
function enumValues(schema: z.ZodType): string[] | undefined {
  let s: z.ZodType | undefined = schema;
  while (s && (defOf(s).type === "default" || defOf(s).type === "optional")) s = defOf(s).innerType;
  return s && defOf(s).type === "enum" ? Object.values(defOf(s).entries ?? {}) : undefined;
}

/**
 * Reads what an env shape says about each setting: description (`.describe()`), default and the
 * allowed values (`.meta({ allowed })` of intVar, boolVar and the URL helpers, or an enum's
 * values). Fails for a setting without a description, so none can be added undocumented.
 */
export function describeSettings(shape: z.ZodRawShape): SettingInfo[] {
  return Object.entries(shape).map(([name, schema]) => {
    const s = schema as z.ZodType;
    const description = s.description;
    if (!description) throw new Error(`${name}: the setting has no description (.describe(...) in its env shape)`);
    const meta = (z.globalRegistry.get(s) ?? {}) as { allowed?: string; secret?: boolean };
    const def = defOf(s).type === "default" ? defOf(s).defaultValue : undefined;
    const values = enumValues(s);
    return {
      name,
      default: def === undefined ? undefined : String(def),
      description,
      allowed: meta.allowed ?? values?.join(", "),
      secret: meta.secret === true,
    };
  });
}
