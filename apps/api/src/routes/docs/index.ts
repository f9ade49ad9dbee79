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
  // The page's address without its slash is redirected here rather than by the static files'
  // handler, which would replace the service's Content-Security-Policy with its own.
  router.get("/docs", (req, res, next) => {
    const url = new URL(req.originalUrl, "http://host");
    if (url.pathname.toLowerCase() !== "/docs") return next();
    res.redirect(301, `/docs/${url.search}`);
  });
  router.use("/docs", swaggerUi.serve);
  router.get("/docs", (req, res, next) => swaggerUi.setup(document(), { customSiteTitle: "Inspection Service API" })(req, res, next));
  return router;
}
