import { CreateTemplateBody, TEMPLATE_MESSAGES } from "@insp/contracts";
import { AppError, badRequest, createTemplate, forbidden, isBlank } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { handle, zodDetails } from "../../http/handle.ts";

/**
 * POST /api/templates. Order of checks: credential (401), non-admin user (403), the spec's
 * two messages (name and type; createdBy with an API key), then the schema, then the data.
 */
export const createTemplateRoute = (deps: Deps) =>
  handle({}, async (_input, req, res) => {
    const p = principalOf(req);
    if (p.kind === "user" && !p.isAdmin) throw forbidden("Only admin users can create templates");
    const raw: unknown = req.body;
    if (raw === undefined) throw new AppError(400, "Request body must be JSON (Content-Type: application/json)");
    const fields = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    if (isBlank(fields.name) || isBlank(fields.type)) throw badRequest(TEMPLATE_MESSAGES.nameAndTypeRequired);
    if (p.kind === "apiKey" && isBlank(fields.createdBy)) throw badRequest(TEMPLATE_MESSAGES.createdByRequired);
    const parsed = CreateTemplateBody.safeParse(raw);
    if (!parsed.success) throw new AppError(400, "Invalid request body", zodDetails(parsed.error));
    const { createdBy: given, ...input } = parsed.data;
    let createdBy: string;
    if (p.kind === "user") {
      // With a user token the caller is the creator; naming someone else is refused, not ignored.
      if (!isBlank(given) && given !== p.userId) throw badRequest("createdBy must be omitted or be your own user id when using a user token");
      createdBy = p.userId;
    } else {
      createdBy = given!;
    }
    const result = await createTemplate(deps.db, { organizationId: p.organizationId, createdBy, input, audit: auditOf(req) });
    res.json({ success: true, message: result.message, template: result.template, skippedRules: result.skippedRules });
  });
