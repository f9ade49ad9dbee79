import { pipeline } from "node:stream/promises";
import type { Request, Router } from "express";
import { cancelExportOp, createExportOp, downloadExportOp, getExportOp, listExportsOp } from "@insp/contracts";
import { MediaMissing, cancelExport, createExport, exportFile, getExport, listExports, notFound } from "@insp/core";
import { enqueueExport } from "@insp/queue";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } as const;

/**
 * CSV and XLSX exports of inspections (extension, docs/exports.md): API keys with inspections:read
 * (an export shows what the list shows) and every user of the organization. A worker writes the
 * file (inspection-export job); these routes queue, report, serve and cancel it.
 */
export function exportRoutes(deps: Deps): Router {
  const org = (req: Request) => principalOf(req).organizationId;
  return mount([
    route(deps, createExportOp, async ({ body }, req, res) => {
      const organizationId = org(req);
      const created = await createExport(deps.db, organizationId, auditOf(req), body, deps.env.EXPORTS_MAX_RUNNING_PER_ORG);
      // If this enqueue fails the row stays QUEUED and the workers' requeue sweep adds its job.
      await enqueueExport(deps.queues, organizationId, created.id).catch((err: unknown) =>
        req.log.warn({ err, exportId: created.id }, "export job not queued; the sweep will queue it"),
      );
      res.setHeader("Location", created.statusUrl);
      res.status(202).json({ id: created.id, status: created.status, statusUrl: created.statusUrl });
    }),
    route(deps, listExportsOp, async ({ query }, req, res) => {
      res.json(await listExports(deps.db, org(req), query));
    }),
    route(deps, getExportOp, async ({ params }, req, res) => {
      res.json(await getExport(deps.db, org(req), params.id));
    }),
    route(deps, cancelExportOp, async ({ params }, req, res) => {
      res.json(await cancelExport(deps.db, org(req), params.id));
    }),
    route(deps, downloadExportOp, async ({ params }, req, res) => {
      const file = await exportFile(deps.db, org(req), params.id);
      // Swept between the row and the stream: the retention sweep took both.
      const body = await deps.media.stream(file.storageKey).catch((err: unknown) => {
        throw err instanceof MediaMissing ? notFound(`Export ${params.id} not found`) : err;
      });
      res.setHeader("Content-Type", CONTENT_TYPES[file.format]);
      res.setHeader("Content-Disposition", `attachment; filename="${file.fileName}"`);
      res.setHeader("Content-Length", String(file.byteSize));
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Cache-Control", "private, no-store");
      try {
        await pipeline(body, res);
      } catch (err) {
        req.log.warn({ err, exportId: params.id }, "export download ended early");
      }
    }),
  ]);
}
