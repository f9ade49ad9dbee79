import { z } from "zod";
import { baseEnvShape, intVar, loadEnv, requireInProduction, requireRedisSettings } from "@insp/config";

/** `npm start` (the launcher) and the admin CLI; docs/configuration.md is generated from it. */
export const adminEnvShape = {
  ...baseEnvShape,
  SECRET_PEPPER: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .meta({ secret: true })
    .describe("The API's SECRET_PEPPER: keys and client secrets made by the admin CLI authenticate only with the same one."),
  EMBEDDED_SERVERS: z
    .enum(["auto", "always", "never"], { message: "must be auto, always or never" })
    .default("auto")
    .describe(
      "For DATABASE_URL / REDIS_URL left unset: `auto` uses the default address when something answers there, else starts an embedded server; `always` starts an embedded server anyway; `never` does not (docs/local-development.md). Never in production.",
    ),
  EMBEDDED_DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default(".data")
    .describe("Folder of the embedded servers' data (relative to the working folder); `npm run admin -- reset-local` wipes it."),
  EMBEDDED_POSTGRES_PORT: intVar(54329, 1, 65535).describe("Port of the embedded Postgres (127.0.0.1 only)."),
  EMBEDDED_REDIS_PORT: intVar(63799, 1, 65535).describe("Port of the embedded Redis (127.0.0.1 only)."),
  DEMO_CREDENTIALS_FILE: z
    .string()
    .trim()
    .min(1)
    .default("demo-credentials.json")
    .describe(
      "File (relative to the working folder) where `npm start` writes the credentials of the demo organization it creates on an empty database; the guides' setup (`docs/examples/demo-env.mjs`) reads it. Written anew on each such start.",
    ),
  WORKER_REPLICAS: intVar(1, 1, 64).describe("Worker processes `npm start` runs beside the API."),
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
