import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { AppError } from "@insp/core";

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface Schemas {
  params?: Schema;
  query?: Schema;
  body?: Schema;
}

export interface Input<S extends Schemas> {
  params: Out<S["params"]>;
  query: Out<S["query"]>;
  body: Out<S["body"]>;
}

/** `path: message` per zod issue, for the `details` of a 400. */
export function zodDetails(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
}

const labels = { params: "Invalid path parameters", query: "Invalid query parameters", body: "Invalid request body" } as const;

/**
 * Validates params, query and body with the contract schemas, then calls `fn` with
 * typed input. A failure is a 400 `{error, details}` naming each bad field.
 */
export function handle<S extends Schemas>(schemas: S, fn: (input: Input<S>, req: Request, res: Response) => Promise<unknown>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const input: Record<string, unknown> = {};
      for (const part of ["params", "query", "body"] as const) {
        const schema = schemas[part];
        if (!schema) continue;
        const raw = part === "body" ? (req.body ?? undefined) : req[part];
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          if (part === "body" && raw === undefined) throw new AppError("invalid", "Request body must be JSON (Content-Type: application/json)");
          throw new AppError("invalid", labels[part], zodDetails(parsed.error));
        }
        input[part] = parsed.data;
      }
      await fn(input as unknown as Input<S>, req, res);
    } catch (err) {
      next(err);
    }
  };
}
