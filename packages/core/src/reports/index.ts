export { getReport, reportFileName, requestReport, type ReportOutcome, type ReportServices, type ReportView } from "./request.ts";
export { classifyReportFailure, failReport, finishReport, forgetReport, startReport } from "./run.ts";
export { loadReportContent, type ReportContent } from "./content.ts";
