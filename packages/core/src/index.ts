export * from "./errors.ts";
export * from "./logger.ts";
export * from "./auth/secrets.ts";
export * from "./auth/passwords.ts";
export * from "./auth/tokens.ts";
export * from "./auth/credentials.ts";
export * from "./directory/admin.ts";
export * from "./directory/seed.ts";
