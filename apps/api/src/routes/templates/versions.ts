import { createVersionOp, listVersionsOp } from "@insp/contracts";
import { createTemplateVersion, listTemplateVersions } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { assertTemplateWriter, creatorOf, parseTemplateBody } from "./templates.ts";

/** A body that asks for a copy of the current version: none, `{}`, or only createdBy. */
const isCopyRequest = (raw: unknown) =>
  raw === undefined || (raw !== null && typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).every((k) => k === "createdBy"));

/** POST /api/templates/:id/versions (extension): the next version as a DRAFT, from a body or as a copy. */
export const createVersionRoute = (deps: Deps) =>
  route(deps, createVersionOp, async ({ params }, req, res) => {
    const p = assertTemplateWriter(req, "create template versions");
    const raw: unknown = req.body;
    const parsed = isCopyRequest(raw)
      ? { createdBy: creatorOf(p, (raw as { createdBy?: string } | undefined)?.createdBy), input: null }
      : parseTemplateBody(raw, p, { createdByRequired: false });
    const result = await createTemplateVersion(deps.db, {
      organizationId: p.organizationId,
      templateId: params.id,
      ...parsed,
      audit: auditOf(req),
      maxVersions: deps.env.TEMPLATE_VERSIONS_MAX_PER_ORG,
    });
    res.status(201).json({ success: true, message: result.message, template: result.template, skippedRules: result.skippedRules });
  });

/** GET /api/templates/:id/versions (extension). */
export const listVersionsRoute = (deps: Deps) =>
  route(deps, listVersionsOp, async ({ params }, req, res) => {
    res.json({ versions: await listTemplateVersions(deps.db, principalOf(req).organizationId, params.id) });
  });
