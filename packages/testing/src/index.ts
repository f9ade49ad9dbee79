export * from "./db.ts";
export * from "./http.ts";
export * from "./processes.ts";
export * from "./stack.ts";
export * from "./smtp.ts";
export * from "./throwaway.ts";
export * from "./fault-stack.ts";
