import type { RequestHandler } from "express";
import { forbidden } from "@insp/core";
import { principalOf } from "../../http/auth.ts";

/** Before the body is validated: a user who is not an admin is refused whatever they send (core checks it again). */
export const adminOnly: RequestHandler = (req, _res, next) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can manage API keys and OAuth clients") : undefined);
};
