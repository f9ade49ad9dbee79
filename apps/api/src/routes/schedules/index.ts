import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { occurrenceRoutes } from "./occurrences.ts";
import { scheduleRoutes } from "./schedules.ts";

/**
 * Scheduled inspections (docs/schedules.md): every user and API keys with schedules:read read
 * schedules and occurrences; admin users and API keys with schedules:write change schedules.
 */
export function scheduleFeatureRoutes(deps: Deps): Router {
  return mount([...scheduleRoutes(deps), ...occurrenceRoutes(deps)]);
}
