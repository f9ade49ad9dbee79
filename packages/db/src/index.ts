export * from "./client.ts";
export * from "./connect.ts";
export * from "./errors.ts";
export * from "./statistics.ts";
export * from "./migrate.ts";
export * as schema from "./schema/index.ts";
export * from "./iso.ts";
export * from "./horizon.ts";
export * from "./two-trips.ts";
