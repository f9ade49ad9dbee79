import { getOccurrenceOp, listOccurrencesOp } from "@insp/contracts";
import { getOccurrence, listOccurrences, type OccurrenceReader } from "@insp/core";
import type { Request } from "express";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { org } from "./shared.ts";

const readerOf = (req: Request): OccurrenceReader => {
  const p = principalOf(req);
  return p.kind === "user" ? { kind: "user", userId: p.userId, isAdmin: p.isAdmin } : { kind: "apiKey" };
};

/** Occurrences: /api/occurrences (core schedules/occurrences.ts). */
export const occurrenceRoutes = (deps: Deps) => [
  route(deps, listOccurrencesOp, async ({ query }, req, res) => {
    res.json(await listOccurrences(deps.db, org(req), readerOf(req), query));
  }),
  route(deps, getOccurrenceOp, async ({ params }, req, res) => {
    res.json(await getOccurrence(deps.db, org(req), params.id));
  }),
];
