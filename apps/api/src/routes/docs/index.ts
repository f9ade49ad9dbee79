import { Router } from "express";
import swaggerUi from "swagger-ui-express";
import { buildOpenApiDocument } from "@insp/contracts";

/** /openapi.json is generated from the zod contracts; /docs renders it (assets ship with the package, no CDN). */
export function docsRoutes(): Router {
  const router = Router();
  let doc: ReturnType<typeof buildOpenApiDocument> | undefined;
  const document = () => (doc ??= buildOpenApiDocument());
  router.get("/openapi.json", (_req, res) => {
    res.json(document());
  });
  router.use("/docs", swaggerUi.serve);
  router.get("/docs", (req, res, next) => swaggerUi.setup(document(), { customSiteTitle: "Inspection Service API" })(req, res, next));
  return router;
}
