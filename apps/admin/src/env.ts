import { z } from "zod";
import { baseEnvShape, intVar, loadEnv, requireInProduction, requireRedisSettings } from "@insp/config";

export const adminEnvShape = {
  ...baseEnvShape,
  /** Must match the API's SECRET_PEPPER, or keys made here will not authenticate. */
  SECRET_PEPPER: z.string().min(16, "must be at least 16 characters").optional(),
  /**
   * Where `npm start` and the admin CLI get Postgres and Redis when DATABASE_URL / REDIS_URL are
   * unset (docs/local-development.md). Never in production.
   */
  EMBEDDED_SERVERS: z.enum(["auto", "always", "never"], { message: "must be auto, always or never" }).default("auto"),
  /** Folder of the embedded servers' data, relative to the working folder. */
  EMBEDDED_DATA_DIR: z.string().trim().min(1).default(".data"),
  EMBEDDED_POSTGRES_PORT: intVar(54329, 1, 65535),
  EMBEDDED_REDIS_PORT: intVar(63799, 1, 65535),
};
export type AdminEnv = ReturnType<typeof loadAdminEnv>;

export function loadAdminEnv(source: Record<string, string | undefined> = process.env) {
  const env = loadEnv(adminEnvShape, source);
  requireInProduction(env, ["WEBHOOK_SECRET_KEY"]);
  requireRedisSettings(env);
  return env;
}

/** Whether the user set a variable (an empty value counts as unset, as loadEnv reads it). */
export const isSet = (name: string, source: Record<string, string | undefined> = process.env) => (source[name] ?? "") !== "";
