import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

/**
 * One registry: each feature file registers its paths with the same zod schemas the
 * API validates with, and /openapi.json is generated from it, so the document and the
 * validation cannot drift apart.
 */
export const registry = new OpenAPIRegistry();

export const apiKeyAuth = registry.registerComponent("securitySchemes", "apiKey", {
  type: "http",
  scheme: "bearer",
  description: "API key (`isk_...`) as a Bearer token, or as the user name of Basic credentials with an empty password. A user token from POST /api/auth/login is accepted too.",
});
export const basicAuth = registry.registerComponent("securitySchemes", "basic", { type: "http", scheme: "basic", description: "API key as the Basic user name (or password)." });
export const oauthAuth = registry.registerComponent("securitySchemes", "oauth2", {
  type: "oauth2",
  flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { "employees:sync": "Push employee batches" } } },
});

export function buildOpenApiDocument(serverUrl?: string) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Inspection Service API",
      version: "1.0.0",
      description: "Inspection templates, inspections and batch employee synchronization, scoped to the caller's organization.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
  });
}

export { z };
