export * from "./openapi.ts";
export * from "./common.ts";
export * from "./auth.ts";
export * from "./templates.ts";
export * from "./inspections.ts";
export * from "./employee-sync.ts";
export * from "./employees.ts";
export * from "./feeds.ts";
