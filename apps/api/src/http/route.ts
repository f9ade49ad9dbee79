import { Router, type Request, type RequestHandler, type Response } from "express";
import type { Operation } from "@insp/contracts";
import type { Deps } from "../deps.ts";
import { authenticate } from "./auth.ts";
import { bodyReadersFor } from "./body.ts";
import { handle, type Input } from "./handle.ts";
import { addressLimiterFor } from "./rate-limit.ts";

/** The typed input of an operation's handler: its params, query and body as its schemas parse them. */
type OperationInput<O extends Operation> = Input<O["input"]>;
export type OperationHandler<O extends Operation> = (input: OperationInput<O>, req: Request, res: Response) => Promise<unknown>;

/** On the last handler of a bound route, its operation: the route test tells bound routes from routes mounted by hand. */
export const OPERATION = Symbol("operation");

/** An operation bound to its handler, ready to mount. */
export interface BoundRoute {
  operation: Operation;
  handlers: RequestHandler[];
}

/** `/api/templates/{id}` as Express writes it: `/api/templates/:id`. */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");

/**
 * What runs before the handler, from the operation's `auth` and `body`: the caller authenticated
 * and counted, then its body read with the operation's limit (authenticate does both, in that
 * order, so nothing is parsed before the sender is known); or, without a credential, the
 * per-address count (and the credential body's small reader) the operation names.
 */
function gate(deps: Deps, op: Operation): RequestHandler[] {
  if (op.auth === "none") return [];
  if (op.auth === "address") return [addressLimiterFor(deps).thisRoute];
  if (op.auth === "body") return [addressLimiterFor(deps).thisRoute, bodyReadersFor(deps.env).credential];
  if (op.body !== "default" && op.body !== "inspection")
    throw new Error(`${op.method} ${op.path}: an authenticated operation reads its body with the default or the inspection limit, not ${op.body}`);
  return [authenticate(deps, { ...op.auth, body: op.body })];
}

/**
 * Binds `operation` to its handler: authentication and body reading from the definition, then
 * any route-specific middleware (`before`, such as requireIfMatch), then params, query and body
 * validated with the definition's schemas (handle), then the handler with typed input.
 */
export function route<O extends Operation>(deps: Deps, operation: O, handler: OperationHandler<O>): BoundRoute;
export function route<O extends Operation>(deps: Deps, operation: O, before: RequestHandler[], handler: OperationHandler<O>): BoundRoute;
export function route<O extends Operation>(deps: Deps, operation: O, ...rest: [OperationHandler<O>] | [RequestHandler[], OperationHandler<O>]): BoundRoute {
  const [before, handler] = rest.length === 1 ? [[], rest[0]] : rest;
  const last = Object.assign(handle(operation.input, handler as never), { [OPERATION]: operation });
  return { operation, handlers: [...gate(deps, operation), ...before, last] };
}

/** A feature's router: its bound routes, mounted in the order given. */
export function mount(routes: BoundRoute[]): Router {
  const router = Router();
  for (const { operation, handlers } of routes) router[operation.method as "get"](expressPath(operation.path), ...handlers);
  return router;
}
