export { ADMIN_CLI, auditContextOf, givenFields, recordAudit, type AuditContext } from "./record.ts";
export { deleteOldAudit, listAudit, type AuditEntry } from "./list.ts";
