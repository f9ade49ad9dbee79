import type { components } from "./generated/openapi.d.ts";

/** Request and response shapes, all from the generated OpenAPI types (src/generated/openapi.d.ts). */
export type Schemas = components["schemas"];
export type EmployeeInput = Schemas["EmployeeInput"];
export type SyncRequestBody = Schemas["EmployeeSyncRequest"];
export type SyncResponse = Schemas["EmployeeSyncResponse"];
export type SyncResultEntry = Schemas["EmployeeSyncResult"];
export type SyncErrorEntry = Schemas["EmployeeSyncError"];
export type SyncAccepted = Schemas["EmployeeSyncAccepted"];
export type SyncStatus = Schemas["EmployeeSyncStatus"];
export type TokenResponse = Schemas["TokenResponse"];
