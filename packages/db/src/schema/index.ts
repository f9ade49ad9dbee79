export * from "./organizations.ts";
export * from "./auth.ts";
export * from "./directory.ts";
export * from "./employees.ts";
export * from "./templates.ts";
export * from "./inspections.ts";
export * from "./sync.ts";
export * from "./changes.ts";
