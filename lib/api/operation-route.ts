import type { NextRequest } from "next/server";
import { ZodObject, type z } from "zod";
import type { Principal } from "@/lib/auth/authenticate";
import type { Operation } from "@/lib/contracts/operation";
import type { ApiHandler } from "./handler";
import { withIdempotency } from "./idempotency";
import { enforceRateLimit, type RateLimitBucket, rateLimitSubject } from "./rate-limit";
import { readJson, readParams, readQuery } from "./read-request";
import { requirePrincipal } from "./with-auth";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a route's handler is given: the request read and checked against its operation. */
export type OperationInput<O extends Operation> = {
  req: NextRequest;
  requestId: string;
  principal: O extends { auth: "bearer" } ? Principal : null;
  params: Parsed<O["pathParams"]>;
  query: Parsed<O["query"]>;
  /** The JSON body, parsed with the operation's schema (a multipart upload reads its own: undefined here). */
  body: O extends { bodyContentType: "multipart/form-data" } ? undefined : Parsed<O["body"]>;
  /** The X-RateLimit-* headers of the route's `limit` (empty without one), for the success answer. */
  limitHeaders: Record<string, string>;
};

export type OperationHandler<O extends Operation> = (input: OperationInput<O>) => Promise<Response>;

export type RouteOptions = {
  /** The rate-limit bucket each call counts against (after authentication, per API key or user). */
  limit?: RateLimitBucket;
  /** Honours an Idempotency-Key: a replay answers the first answer and does not count against `limit`. */
  idempotent?: boolean;
};

/** A JSON body to read: a multipart upload reads its own, and an empty object schema asks for no body. */
function readsJson(operation: Operation): operation is Operation & { body: z.ZodType } {
  const { body, bodyContentType } = operation;
  if (!body || bodyContentType === "multipart/form-data") return false;
  return !(body instanceof ZodObject && Object.keys(body.shape).length === 0);
}

/**
 * The route of `operation`: authenticates a bearer operation (401), reads its path parameters (a malformed
 * id is 404), query and JSON body (400 `invalid_request`), runs its rate limit and idempotency, and hands
 * `handler` the typed input. withApi(operation, handler, options) wraps it.
 */
export function operationHandler<O extends Operation>(
  operation: O,
  handler: OperationHandler<O>,
  { limit, idempotent = false }: RouteOptions = {},
): ApiHandler {
  return async (req, { requestId, params: routeParams }) => {
    const principal = operation.auth === "bearer" ? await requirePrincipal(req) : null;
    const params = operation.pathParams ? readParams(routeParams, operation.pathParams) : undefined;
    const query = operation.query ? readQuery(req, operation.query) : undefined;
    const body = readsJson(operation) ? await readJson(req, operation.body) : undefined;
    const subject = principal ? rateLimitSubject(principal) : "anonymous";
    const run = async () => {
      const limitHeaders = limit ? await enforceRateLimit({ bucket: limit, subject }) : {};
      return handler({ req, requestId, principal, params, query, body, limitHeaders } as OperationInput<O>);
    };
    // Inside execute: a replay of an Idempotency-Key does not count against the rate limit.
    return idempotent
      ? withIdempotency({ req, subject, operation: operation.id, body, execute: run })
      : run();
  };
}
