import type { Request } from "express";
import { archiveTemplateOp, CreateTemplateBody, createTemplateOp, getTemplateOp, listTemplatesOp, publishTemplateOp, TEMPLATE_MESSAGES } from "@insp/contracts";
import {
  AppError,
  badRequest,
  changeTemplateStatus,
  createTemplate,
  forbidden,
  getTemplateDetail,
  isBlank,
  listTemplates,
  type CreateTemplateInput,
  type Principal,
  type TemplateAction,
} from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { zodDetails } from "../../http/handle.ts";
import { route } from "../../http/route.ts";

/**
 * A create-shaped body (POST /api/templates, POST /api/templates/{id}/versions). Order of
 * checks: the spec's two messages (name and type; createdBy with an API key, when required),
 * then the schema. With a user token the caller is the creator; naming someone else is refused.
 */
export function parseTemplateBody(raw: unknown, p: Principal, opts: { createdByRequired: boolean }): { createdBy: string | null; input: CreateTemplateInput } {
  if (raw === undefined) throw new AppError("invalid", "Request body must be JSON (Content-Type: application/json)");
  const fields = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (isBlank(fields.name) || isBlank(fields.type)) throw badRequest(TEMPLATE_MESSAGES.nameAndTypeRequired);
  if (p.kind === "apiKey" && opts.createdByRequired && isBlank(fields.createdBy)) throw badRequest(TEMPLATE_MESSAGES.createdByRequired);
  const parsed = CreateTemplateBody.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid", "Invalid request body", zodDetails(parsed.error));
  const { createdBy: given, ...input } = parsed.data;
  return { createdBy: creatorOf(p, given), input };
}

/** The creator: the user of a user token (a different createdBy is a 400), else the body's createdBy. */
export function creatorOf(p: Principal, given: string | null | undefined): string | null {
  if (p.kind !== "user") return isBlank(given) ? null : given!;
  if (!isBlank(given) && given !== p.userId) throw badRequest("createdBy must be omitted or be your own user id when using a user token");
  return p.userId;
}

/** Templates are written by API keys and admin users only; others get 403 before the body is looked at. */
export function assertTemplateWriter(req: Request, what: string): Principal {
  const p = principalOf(req);
  if (p.kind === "user" && !p.isAdmin) throw forbidden(`Only admin users can ${what}`);
  return p;
}

/** POST /api/templates. Order of checks: credential (401), non-admin user (403), then parseTemplateBody, then the data. */
export const createTemplateRoute = (deps: Deps) =>
  route(deps, createTemplateOp, async (_input, req, res) => {
    const p = assertTemplateWriter(req, "create templates");
    const { createdBy, input } = parseTemplateBody(req.body, p, { createdByRequired: true });
    const result = await createTemplate(deps.db, {
      organizationId: p.organizationId,
      createdBy: createdBy!,
      input,
      audit: auditOf(req),
      maxVersions: deps.env.TEMPLATE_VERSIONS_MAX_PER_ORG,
    });
    res.json({ success: true, message: result.message, template: result.template, skippedRules: result.skippedRules });
  });

/** GET /api/templates: a plain array (spec), PUBLISHED only unless publishedOnly=false. */
export const templateListRoute = (deps: Deps) =>
  route(deps, listTemplatesOp, async ({ query }, req, res) => {
    res.json(await listTemplates(deps.db, principalOf(req).organizationId, { publishedOnly: query.publishedOnly }));
  });

/** GET /api/templates/:id[?version=n]: 404 unknown or malformed id, 403 another organization's template (spec). */
export const templateDetailRoute = (deps: Deps) =>
  route(deps, getTemplateOp, async ({ params, query }, req, res) => {
    res.json(await getTemplateDetail(deps.db, principalOf(req).organizationId, params.id, query.version));
  });

/** POST /api/templates/:id/publish|archive (extensions): API key or admin user; answers the detail. */
export const templateStatusRoute = (deps: Deps, action: TemplateAction) =>
  route(deps, action === "publish" ? publishTemplateOp : archiveTemplateOp, async ({ params }, req, res) => {
    const p = assertTemplateWriter(req, `${action} templates`);
    res.json(await changeTemplateStatus(deps.db, p.organizationId, params.id, action, auditOf(req)));
  });
