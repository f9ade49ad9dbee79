export * from "./db.ts";
export * from "./http.ts";
export * from "./processes.ts";
export * from "./stack.ts";
export * from "./smtp.ts";
