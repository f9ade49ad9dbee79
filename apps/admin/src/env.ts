import { z } from "zod";
import { baseEnvShape, loadEnv, requireInProduction, requireRedisSettings } from "@insp/config";

export const adminEnvShape = {
  ...baseEnvShape,
  /** Must match the API's SECRET_PEPPER, or keys made here will not authenticate. */
  SECRET_PEPPER: z.string().min(16, "must be at least 16 characters").optional(),
};
export function loadAdminEnv(source: Record<string, string | undefined> = process.env) {
  const env = loadEnv(adminEnvShape, source);
  requireInProduction(env, ["WEBHOOK_SECRET_KEY"]);
  requireRedisSettings(env);
  return env;
}
