export { cancelExport, createExport, deleteExpiredExports, exportFile, getExport, listExports, requeueStalledExports } from "./service.ts";
export { runExport } from "./run.ts";
