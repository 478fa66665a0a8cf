import type { NextRequest } from "next/server";
import type { Operation } from "@/lib/contracts/operation";
import { ApiError } from "@/lib/errors/api-error";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/errors/request-id";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { metrics } from "@/lib/telemetry/metrics";
import { failSpan, inSpan, requestContext, SpanKind } from "@/lib/telemetry/tracing";
import { classifyError } from "./classify-error";
import { type OperationHandler, operationHandler, type RouteOptions } from "./operation-route";

export type RouteParams = Record<string, string | string[] | undefined>;
export type ApiContext = { requestId: string; params: RouteParams };
export type ApiHandler<C extends ApiContext = ApiContext> = (req: NextRequest, ctx: C) => Promise<Response>;

type NextRouteContext = { params: Promise<RouteParams> };

export function errorResponse(
  code: ErrorCode,
  message: string,
  requestId: string,
  docId: string | undefined,
  options: { details?: unknown; retryable?: boolean; headers?: Record<string, string> } = {},
) {
  const { status, retryable } = ERROR_CODES[code];
  // invalid_request always names what was wrong as [{ path, message }] (DESIGN §4), even where the
  // thrower gave no fields: a typed client reads one shape.
  const details =
    code === "invalid_request" && !Array.isArray(options.details)
      ? [{ path: "(request)", message }]
      : options.details;
  const body = {
    error: {
      code,
      message,
      retryable: options.retryable ?? retryable,
      requestId,
      docUrl: docId ? `/api-docs/${docId}#errors` : "/api-docs",
      ...(details === undefined ? {} : { details }),
    },
  };
  const headers = new Headers(options.headers);
  headers.set("X-Request-Id", requestId);
  headers.set("Cache-Control", "no-store");
  if (code === "unauthorized") headers.set("WWW-Authenticate", 'Bearer error="invalid_token"');
  return Response.json(body, { status, headers });
}

type NamedOptions = { docId?: string; operation?: string | ((req: NextRequest) => string) };
type RouteHandler = (req: NextRequest, route?: NextRouteContext) => Promise<Response>;

/**
 * The outermost wrapper of every API route: gives the request an id, and turns anything thrown into
 * the error envelope. `docId` is the operation's docs card, linked from every error; it also names the
 * operation's span and metrics (`operation` names the few routes that have no card, per request where one
 * route serves several: next-auth's).
 *
 * A route of a contract's operation is declared by it: withApi(operation, handler, { limit, idempotent })
 * authenticates, reads the path parameters, query and body the operation declares, runs the rate limit and
 * idempotency and hands the handler typed input (lib/api/operation-route.ts). The older
 * withApi(withAuth(handler), { docId }) form still works.
 */
export function withApi<O extends Operation>(
  operation: O,
  handler: OperationHandler<O>,
  options?: RouteOptions,
): RouteHandler;
export function withApi(handler: ApiHandler, options?: NamedOptions): RouteHandler;
export function withApi<O extends Operation>(
  first: O | ApiHandler,
  second?: OperationHandler<O> | NamedOptions,
  third?: RouteOptions,
): RouteHandler {
  if (typeof first === "function") return wrap(first, (second as NamedOptions | undefined) ?? {});
  return wrap(operationHandler(first, second as OperationHandler<O>, third), { docId: first.id });
}

function wrap(handler: ApiHandler, options: NamedOptions): RouteHandler {
  const named = options.docId ?? options.operation ?? "unlisted";
  return async (req: NextRequest, route?: NextRouteContext): Promise<Response> => {
    const operation = typeof named === "string" ? named : named(req);
    // The proxy gives every /api request its id (and puts it on the response); reuse it so both agree.
    const requestId = requestIdFrom(req.headers.get(REQUEST_ID_HEADER)) ?? newId("req");
    const started = performance.now();
    return inSpan(
      operation,
      {
        kind: SpanKind.SERVER,
        parent: requestContext(requestId),
        attributes: { "http.request.method": req.method, "brand_studio.request_id": requestId },
      },
      async (span) => {
        const { response, code } = await answer(handler, req, route, requestId, options.docId);
        const status = String(response.status);
        const labels = { operation, method: req.method, status };
        const { httpRequests, httpDuration } = metrics();
        httpRequests.inc(labels);
        httpDuration.observe(labels, (performance.now() - started) / 1000);
        span.setAttribute("http.response.status_code", response.status);
        if (code) span.setAttribute("brand_studio.error_code", code);
        if (response.status >= 500) failSpan(span, code ?? status);
        return response;
      },
    );
  };
}

async function answer(
  handler: ApiHandler,
  req: NextRequest,
  route: NextRouteContext | undefined,
  requestId: string,
  docId: string | undefined,
): Promise<{ response: Response; code?: ErrorCode }> {
  try {
    const params = (await route?.params) ?? {};
    const response = await handler(req, { requestId, params });
    response.headers.set("X-Request-Id", requestId);
    return { response };
  } catch (error) {
    if (error instanceof ApiError) {
      return {
        response: errorResponse(error.code, error.message, requestId, docId, error),
        code: error.code,
      };
    }
    const known = classifyError(error);
    if (known) {
      log.warn(known.code, { requestId, method: req.method, path: req.nextUrl.pathname, error });
      return {
        response: errorResponse(known.code, known.message, requestId, docId, known),
        code: known.code,
      };
    }
    log.error("unhandled_error", { requestId, method: req.method, path: req.nextUrl.pathname, error });
    return {
      response: errorResponse(
        "internal_error",
        "Something went wrong on our side. Try again.",
        requestId,
        docId,
      ),
      code: "internal_error",
    };
  }
}
