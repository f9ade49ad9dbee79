export {
  getReport,
  reportCacheKey,
  reportFileName,
  requestReport,
  reviewStateOf,
  revisionOfCacheKey,
  type ReportOutcome,
  type ReportServices,
  type ReportStatus,
  type ReportView,
} from "./request.ts";
export { classifyReportFailure, failReport, finishReport, forgetReport, PermanentReportError, startReport } from "./run.ts";
export { loadReportContent, type ReportContent } from "./content.ts";
