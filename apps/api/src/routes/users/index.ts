import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { userRoutes } from "./users.ts";

/** The organization's users (extension, docs/users.md). */
export function usersRoutes(deps: Deps): Router {
  return mount(userRoutes(deps));
}
