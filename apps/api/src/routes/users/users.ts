import type { Request } from "express";
import { getUserOp, inviteUserOp, listUsersOp, patchUserOp, resetUserPasswordOp } from "@insp/contracts";
import { forbidden, getUser, inviteUser, listUsers, parseETagList, resetUserPassword, updateUser, userETag } from "@insp/core";
import { enqueueMails } from "@insp/queue";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { noneMatchHits, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";

/** Before the body is validated: a user who is not an admin is refused whatever they send (core checks it again). */
const adminOnly = (req: Request, _res: unknown, next: (err?: unknown) => void) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can manage users") : undefined);
};

/** Users (extension, docs/users.md): admin users and keys with users:manage. */
export function userRoutes(deps: Deps) {
  const org = (req: Request) => principalOf(req).organizationId;
  return [
    route(deps, listUsersOp, [adminOnly], async ({ query }, req, res) => {
      res.json(await listUsers(deps.db, org(req), principalOf(req), query));
    }),
    route(deps, getUserOp, [adminOnly], async ({ params }, req, res) => {
      const user = await getUser(deps.db, org(req), principalOf(req), params.id);
      const etag = userETag(user);
      res.setHeader("ETag", etag);
      if (noneMatchHits(req.header("if-none-match"), etag)) {
        res.status(304).end();
        return;
      }
      res.json(user);
    }),
    route(deps, patchUserOp, [adminOnly, requireIfMatch(getUserOp.path)], async ({ params, body }, req, res) => {
      // If-Match compares strongly (RFC 9110 section 13.1.1): a weak tag matches nothing (412).
      const tags = parseETagList(req.header("if-match")!);
      const ifMatch = tags === "*" ? null : tags.filter((t) => !t.weak).map((t) => `"${t.opaque}"`);
      const user = await updateUser(deps.db, org(req), principalOf(req), params.id, ifMatch, body, auditOf(req));
      res.setHeader("ETag", userETag(user));
      res.json(user);
    }),
    route(deps, resetUserPasswordOp, [adminOnly], async ({ params }, req, res) => {
      const { user, outboxIds } = await resetUserPassword(deps.db, org(req), principalOf(req), params.id, auditOf(req));
      await enqueueMails(deps.queues, org(req), outboxIds).catch((err: unknown) =>
        req.log.warn({ err }, "password reset mail job not enqueued; the sweep sends it"),
      );
      res.json({ ...user, welcomeMailQueued: true });
    }),
    route(deps, inviteUserOp, [adminOnly], async ({ body }, req, res) => {
      const { user, outboxIds } = await inviteUser(deps.db, org(req), principalOf(req), body, auditOf(req));
      // After commit; a lost job is picked up by the outbox sweep (OUTBOX_SWEEP_SECONDS).
      await enqueueMails(deps.queues, org(req), outboxIds).catch((err: unknown) => req.log.warn({ err }, "welcome mail job not enqueued; the sweep sends it"));
      res.status(201).json({ ...user, welcomeMailQueued: outboxIds.length > 0 });
    }),
  ];
}
