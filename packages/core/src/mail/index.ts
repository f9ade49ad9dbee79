export * from "./outbox.ts";
export * from "./transport.ts";
export * from "./welcome.ts";
export * from "./deliver.ts";
export * from "./sweep.ts";
