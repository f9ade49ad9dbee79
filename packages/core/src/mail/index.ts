export { recordMailFailure } from "./outbox.ts";
export { createMailer, smtpTransportOptions, type Mailer } from "./transport.ts";
export { deliverMail } from "./deliver.ts";
export { requeueStaleMail } from "./sweep.ts";
