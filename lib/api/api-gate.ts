import type { ErrorCode } from "@/lib/errors/error-codes";
import { newRequestId } from "@/lib/errors/request-id";
import { apiRouteFor } from "./api-routes";
import { errorResponse } from "./handler";
import { payloadTooLarge } from "./read-body";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** True when every %-escape in the path is valid UTF-8 and none of them decodes to a NUL. */
export function isWellEncoded(pathname: string) {
  try {
    return !decodeURIComponent(pathname).includes("\u0000");
  } catch {
    return false;
  }
}

/** A `.` or `..` segment, raw or percent-encoded (%2e, %2E, mixed). */
export function hasDotSegment(pathname: string) {
  return pathname.split("/").some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

/** A path with a dot segment: 400 in the envelope (Next would normalise it to another path). */
export const dotSegmentPath = (requestId = newRequestId()) =>
  errorResponse("invalid_request", "The path has a '.' or '..' segment.", requestId, undefined, {
    details: [{ path: "path", message: "'.' and '..' segments (raw or percent-encoded) are not allowed." }],
  });

/** A path whose %-encoding does not decode: 400 in the envelope, wherever it points (/api or /media). */
export const badPathEncoding = (requestId = newRequestId()) =>
  errorResponse("invalid_request", "The path is not valid percent-encoded UTF-8.", requestId, undefined);

/**
 * A raw `#` in the request target: a fragment is never sent to a server (RFC 9112 §3.2), and Next would cut
 * the path at it and answer for another path (a bare 405 for `POST /api/brands/brd_x#frag/logo`).
 */
export const rawFragment = (requestId = newRequestId()) =>
  errorResponse("invalid_request", "The request target has a raw '#'.", requestId, undefined, {
    details: [{ path: "path", message: "A '#' in a path or query must be percent-encoded (%23)." }],
  });

/** What the gate needs of a request: what the HTTP server has before Next builds anything. */
export type GateRequest = { method: string; url: string; contentLength?: string };

const redirect = (location: string, requestId: string) =>
  new Response(null, { status: 308, headers: { Location: location, "X-Request-Id": requestId } });

/**
 * The one gate in front of every /api request, run by the HTTP server before Next (lib/server/http-guard.ts),
 * so the rules hold for every route at once and cost no Next middleware: a malformed path encoding or a `.`/`..`
 * segment (raw or percent-encoded) is 400;
 * repeated or trailing slashes are a 308 to the clean path; an unknown path is the 404 envelope; a method the
 * path does not serve (TRACE, PROPFIND, DELETE /api/brands, …) is 405 with `Allow`; OPTIONS is 204 with
 * `Allow`; and a declared Content-Length over the operation's limit is 413 before any of the body is read.
 * Undefined means the request goes on to its route handler.
 */
export function apiGate({ method: rawMethod, url, contentLength }: GateRequest, requestId: string) {
  const queryAt = url.indexOf("?");
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const search = queryAt < 0 ? "" : url.slice(queryAt);
  const method = rawMethod.toUpperCase();
  const fail = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
    errorResponse(code, message, requestId, undefined, { headers });

  if (!isWellEncoded(pathname)) return badPathEncoding(requestId);
  if (url.includes("#")) return rawFragment(requestId);
  if (hasDotSegment(pathname)) return dotSegmentPath(requestId);
  const clean = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  if (clean !== pathname) return redirect(`${clean}${search}`, requestId);

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
    const declared = Number(contentLength ?? 0);
    if (limit !== undefined && Number.isFinite(declared) && declared > limit) {
      const error = payloadTooLarge(limit);
      return errorResponse(error.code, error.message, requestId, undefined, error);
    }
  }
  return undefined;
}
