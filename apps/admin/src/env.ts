import { z } from "zod";
import { baseEnvShape, loadEnv } from "@insp/config";

export const adminEnvShape = {
  ...baseEnvShape,
  /** Must match the API's SECRET_PEPPER, or keys made here will not authenticate. */
  SECRET_PEPPER: z.string().min(16, "must be at least 16 characters").optional(),
};
export const loadAdminEnv = (source: Record<string, string | undefined> = process.env) => loadEnv(adminEnvShape, source);
