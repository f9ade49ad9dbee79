import { DateTime } from "luxon";

/** The outbox data of a reminder e-mail (kind occurrence_reminder): names and times, nothing secret. */
export interface ReminderMailData {
  displayName: string | null;
  occurrenceId: string;
  scheduleName: string;
  templateName: string | null;
  startAt: string;
  dueAt: string;
  timeZone: string;
  siteName: string | null;
  assetName: string | null;
  assetCode: string | null;
}

/** "Tuesday, 31 March 2026, 18:00 (Europe/Berlin)": the due time as the schedule's people read it. */
const localTime = (iso: string, zone: string) => {
  const d = DateTime.fromISO(iso, { zone });
  return d.isValid ? `${d.setLocale("en-GB").toFormat("cccc, d LLLL yyyy, HH:mm")} (${zone})` : iso;
};

/**
 * The reminder of a scheduled inspection due soon (pure; docs/schedules.md): to one assignee,
 * when the schedule has remindByEmail. Lines stay under 76 characters where the names allow.
 */
export function composeReminder(m: { to: string; from: string; organizationName: string; loginUrl: string; data: ReminderMailData }) {
  const d = m.data;
  const lines = [d.displayName ? `Hello ${d.displayName},` : "Hello,", "", `A scheduled inspection at ${m.organizationName} is due soon:`, ""];
  lines.push(`  ${d.scheduleName}`);
  if (d.templateName) lines.push(`  Template: ${d.templateName}`);
  if (d.assetName) lines.push(`  Asset: ${d.assetName}${d.assetCode ? ` (${d.assetCode})` : ""}`);
  if (d.siteName) lines.push(`  Site: ${d.siteName}`);
  lines.push(`  Due: ${localTime(d.dueAt, d.timeZone)}`, "");
  lines.push("Open it in the app, or find it in your list of occurrences", `(occurrence ${d.occurrenceId}).`, "", `Sign in: ${m.loginUrl}`, "");
  return { from: m.from, to: m.to, subject: `Due soon: ${d.scheduleName}`, text: lines.join("\n") };
}
