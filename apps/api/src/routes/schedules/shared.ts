import type { RequestHandler } from "express";
import { forbidden } from "@insp/core";
import { principalOf } from "../../http/auth.ts";

export { org, sendView } from "../directory/shared.ts";

/** Who changes schedules (docs/schedules.md): admin users and API keys with schedules:write (the operation's keyScopes). */
export const adminOnly: RequestHandler = (req, _res, next) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can create, change and delete schedules") : undefined);
};
