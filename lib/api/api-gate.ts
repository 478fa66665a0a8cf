import { type NextRequest, NextResponse } from "next/server";
import { apiRouteFor } from "./api-routes";
import type { ErrorCode } from "./error-codes";
import { errorResponse } from "./handler";
import { payloadTooLarge } from "./read-body";
import { newRequestId, REQUEST_ID_HEADER } from "./request-id";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True when every %-escape in the path is valid UTF-8 and none of them decodes to a NUL. */
export function isWellEncoded(pathname: string) {
  try {
    return !decodeURIComponent(pathname).includes("\u0000");
  } catch {
    return false;
  }
}

/** A path whose %-encoding does not decode: 400 in the envelope, wherever it points (/api or /media). */
export const badPathEncoding = (requestId = newRequestId()) =>
  errorResponse("invalid_request", "The path is not valid percent-encoded UTF-8.", requestId, undefined);

/**
 * The one gate in front of every /api request (run by proxy.ts), so the rules hold for every route at
 * once: each request gets its X-Request-Id; a malformed path encoding is 400; an unknown path is the 404
 * envelope; a method the path does not serve (TRACE, PROPFIND, DELETE /api/brands, …) is 405 with `Allow`;
 * OPTIONS is 204 with `Allow`; a trailing slash is a 308 to the path without it; and a declared
 * Content-Length over the operation's limit is 413 before any of the body is read.
 */
export function apiGate(request: NextRequest): Response {
  const requestId = newRequestId();
  const { pathname, search } = request.nextUrl;
  const method = request.method.toUpperCase();
  const fail = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
    errorResponse(code, message, requestId, undefined, { headers });

  if (!isWellEncoded(pathname)) return badPathEncoding(requestId);
  if (pathname.length > "/api".length && pathname.endsWith("/")) {
    const response = NextResponse.redirect(
      new URL(`${pathname.replace(/\/+$/, "")}${search}`, request.url),
      308,
    );
    response.headers.set("X-Request-Id", requestId);
    return response;
  }
  const route = apiRouteFor(pathname);
  if (!route)
    return fail("not_found", `No operation at ${method} ${pathname}. See /api-docs for the operations.`);

  const allow = route.allow.join(", ");
  if (method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: { Allow: allow, "X-Request-Id": requestId, "Cache-Control": "no-store" },
    });
  }
  if (!route.allow.includes(method)) {
    return fail("method_not_allowed", `${pathname} does not answer ${method}. It answers ${allow}.`, {
      Allow: allow,
    });
  }
  if (BODY_METHODS.has(method)) {
    const limit = route.bodyLimit(method);
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (limit !== undefined && Number.isFinite(declared) && declared > limit) {
      const error = payloadTooLarge(limit);
      return errorResponse(error.code, error.message, requestId, undefined, error);
    }
  }

  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}
