export {
  EXPORT_FORMATS,
  EXPORT_STATUSES,
  cancelExport,
  createExport,
  deleteExpiredExports,
  exportFile,
  getExport,
  listExports,
  requeueStalledExports,
  toExportView,
  type CreateExportInput,
  type ExportFormat,
  type ExportListQuery,
  type ExportStatus,
  type ExportView,
  type StoredExportFilter,
} from "./service.ts";
export { EXPORT_PAGE_SIZE, runExport, type ExportRunContext, type ExportRunResult } from "./run.ts";
export { SUMMARY_HEADERS } from "./columns.ts";
export { csvRecord, neutralizeFormula, type Cell } from "./format.ts";
