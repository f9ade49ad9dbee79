import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { assets, sites } from "./directory.ts";
import { inspections } from "./inspections.ts";
import { templates } from "./templates.ts";

/** Who a schedule assigns (resolved to users when an occurrence opens). */
export interface ScheduleAssignees {
  userIds: string[];
  groupIds: string[];
  roleIds: string[];
  siteIds: string[];
}

/** What a schedule makes one occurrence per: nothing (one), each listed site, or each asset of a type, of a site, or both. */
export type ScheduleTarget = { kind: "none" } | { kind: "sites"; siteIds: string[] } | { kind: "assets"; assetTypeId?: string; siteId?: string };

/** Who takes over a leaver's occurrences. */
export type LeaverRule = { kind: "site_manager" } | { kind: "user"; userId: string } | { kind: "unassigned" };

/**
 * Scheduled inspections (docs/schedules.md): a published template, a recurrence in an IANA zone,
 * assignees and a target. The worker's sweep materializes occurrences up to `materializedUntil`.
 */
export const schedules = pgTable(
  "schedules",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    /** An RFC 5545 RRULE value (no DTSTART), or null for "N days after the last completion". */
    rrule: text("rrule"),
    afterCompletionDays: integer("after_completion_days"),
    timeZone: text("time_zone").notNull(),
    /** Local date (YYYY-MM-DD) and time (HH:MM) of the first occurrence. */
    startDate: text("start_date").notNull(),
    startTime: text("start_time").notNull(),
    dueWithinMinutes: integer("due_within_minutes").notNull(),
    assignees: jsonb("assignees").$type<ScheduleAssignees>().notNull(),
    target: jsonb("target").$type<ScheduleTarget>().notNull(),
    /** ONE (anyone assigned) or ALL (each assignee). */
    mustComplete: text("must_complete").notNull().default("ONE"),
    canLateSubmit: boolean("can_late_submit").notNull().default(false),
    reminderMinutesBefore: integer("reminder_minutes_before"),
    /** With the reminder, an e-mail to each assignee through the mail outbox. */
    remindByEmail: boolean("remind_by_email").notNull().default(false),
    leaverRule: jsonb("leaver_rule").$type<LeaverRule>().notNull(),
    pausedAt: ts("paused_at"),
    /** Occurrences starting before this instant have been made (the sweep's high-water mark); null: none yet. */
    materializedUntil: ts("materialized_until"),
    revision: integer("revision").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("schedules_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    // The sweep reads the active schedules whose horizon is behind.
    index("schedules_materialize_idx")
      .on(t.materializedUntil)
      .where(sql`paused_at is null`),
  ],
);

/**
 * One occurrence of a schedule for one target: UPCOMING -> OPEN -> COMPLETED, or MISSED at its
 * due time (LATE, then COMPLETED_LATE, when the schedule allows late submissions). Unique per
 * (schedule, target, start): a sweep that runs twice, or on two workers, inserts it once.
 */
export const occurrences = pgTable(
  "occurrences",
  {
    id: id(),
    organizationId: orgId(),
    scheduleId: uuid("schedule_id").references(() => schedules.id, { onDelete: "set null" }),
    /** '' (no target), 'site:<id>' or 'asset:<id>': part of the unique key. */
    targetKey: text("target_key").notNull(),
    siteId: uuid("site_id").references(() => sites.id, { onDelete: "set null" }),
    assetId: uuid("asset_id").references(() => assets.id, { onDelete: "set null" }),
    templateId: uuid("template_id").references(() => templates.id, { onDelete: "set null" }),
    /** The published version when it opened. */
    templateVersion: integer("template_version"),
    startAt: ts("start_at").notNull(),
    /** The schedule's zone when it was made: the local times shown. */
    timeZone: text("time_zone").notNull(),
    dueAt: ts("due_at").notNull(),
    /** UPCOMING, OPEN, COMPLETED, MISSED, LATE, COMPLETED_LATE */
    state: text("state").notNull().default("UPCOMING"),
    mustComplete: text("must_complete").notNull().default("ONE"),
    /** Users assigned, resolved when it opened (and after a leaver's reassignment). */
    assigneeUserIds: uuid("assignee_user_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Users who completed it (ALL needs every assignee). */
    completedByUserIds: uuid("completed_by_user_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Set when a leaver's work could not be reassigned (leaver rule `unassigned`, or no site manager). */
    needsAssignee: boolean("needs_assignee").notNull().default(false),
    openedAt: ts("opened_at"),
    startedAt: ts("started_at"),
    inspectionId: uuid("inspection_id").references(() => inspections.id, { onDelete: "set null" }),
    completedAt: ts("completed_at"),
    missedAt: ts("missed_at"),
    remindedAt: ts("reminded_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("occurrences_schedule_target_start_key").on(t.scheduleId, t.targetKey, t.startAt),
    index("occurrences_org_due_idx").on(t.organizationId, t.dueAt, t.id),
    index("occurrences_assignees_idx").using("gin", t.assigneeUserIds),
    index("occurrences_upcoming_idx")
      .on(t.startAt)
      .where(sql`state = 'UPCOMING'`),
    // An asset's next occurrence (GET /api/assets/{id}).
    index("occurrences_asset_pending_idx")
      .on(t.assetId, t.dueAt)
      .where(sql`state in ('UPCOMING', 'OPEN', 'LATE')`),
    index("occurrences_open_due_idx")
      .on(t.dueAt)
      .where(sql`state = 'OPEN'`),
  ],
);
