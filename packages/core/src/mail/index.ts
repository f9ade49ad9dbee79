export { recordMailFailure } from "./outbox.ts";
export { createMailer, type Mailer } from "./transport.ts";
export { deliverMail } from "./deliver.ts";
export { requeueStaleMail } from "./sweep.ts";
