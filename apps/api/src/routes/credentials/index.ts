import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { oauthClientRoutes } from "./oauth-clients.ts";

/** The organization's credentials (extension, docs/authentication.md, Managing API keys and OAuth clients). */
export function credentialRoutes(deps: Deps): Router {
  return mount([...apiKeyRoutes(deps), ...oauthClientRoutes(deps)]);
}
