import { createScheduleOp, deleteScheduleOp, getScheduleOp, listSchedulesOp, patchScheduleOp, upcomingScheduleOp } from "@insp/contracts";
import { createSchedule, deleteSchedule, getSchedule, listSchedules, patchSchedule, upcomingOf } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Schedules: /api/schedules (core schedules/schedules.ts). */
export const scheduleRoutes = (deps: Deps) => [
  route(deps, listSchedulesOp, async ({ query }, req, res) => {
    res.json(await listSchedules(deps.db, org(req), query));
  }),
  route(deps, getScheduleOp, async ({ params }, req, res) => sendView(req, res, await getSchedule(deps.db, org(req), params.id))),
  route(deps, createScheduleOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createSchedule(deps.db, org(req), auditOf(req), body, deps.env.SCHEDULES_MAX_PER_ORG), 201),
  ),
  route(deps, patchScheduleOp, [adminOnly, requireIfMatch(getScheduleOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchSchedule(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteScheduleOp, [adminOnly], async ({ params }, req, res) => {
    await deleteSchedule(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
  route(deps, upcomingScheduleOp, async ({ params, query }, req, res) => {
    const from = query.from ? new Date(query.from) : new Date();
    const { timeZone, upcoming } = await upcomingOf(deps.db, org(req), params.id, from, query.count);
    res.json({
      timeZone,
      upcoming: upcoming.map((o) => ({ startAt: o.startAt.toISOString(), dueAt: o.dueAt.toISOString(), localStart: o.localStart, localDue: o.localDue })),
    });
  }),
];
