export { ADMIN_CLI, auditContextOf, givenFields, recordAudit, type ActorType, type AuditContext } from "./record.ts";
export { deleteOldAudit, listAudit, type AuditEntry, type AuditQuery } from "./list.ts";
