import http from "node:http";
import { apiRouteFor } from "@/lib/api/api-routes";
import { errorResponse } from "@/lib/api/handler";
import { payloadTooLarge } from "@/lib/api/read-body";
import { newRequestId } from "@/lib/api/request-id";
import { PEER_HEADER } from "@/lib/auth/client-ip";

/** Methods the fetch standard refuses to build a Request for: Next fails on them before any of our code runs. */
const FORBIDDEN = new Set(["TRACE", "TRACK"]);
const installed = globalThis as unknown as { brandStudioMethodGuard?: boolean };

/**
 * Two things only the HTTP server can do, installed once per process from the instrumentation hook:
 * - stamp each request with its socket's peer address (PEER_HEADER), which route handlers cannot see;
 * - answer TRACE and TRACK before Next sees them (it would crash building the request and answer a
 *   text/plain 500): 405 in the error envelope, with `Allow` and `X-Request-Id`, like every other method a
 *   path does not serve;
 * - answer 413 to an /api body whose declared Content-Length is over its operation's limit.
 */
export function installHttpGuard() {
  if (installed.brandStudioMethodGuard) return;
  installed.brandStudioMethodGuard = true;
  const emit = http.Server.prototype.emit as (
    this: http.Server,
    event: string,
    ...args: unknown[]
  ) => boolean;
  http.Server.prototype.emit = function guarded(this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "unknown";
      if (FORBIDDEN.has(req.method ?? "")) {
        void answer(req, res, forbiddenMethod(req));
        return true;
      }
      const slashes = repeatedSlashes(req);
      if (slashes) {
        void answer(req, res, slashes);
        return true;
      }
      const tooLarge = declaredTooLarge(req);
      if (tooLarge) {
        void answer(req, res, tooLarge);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

const isApi = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** Next answers /api//x with its own 308 before the proxy runs; this one carries X-Request-Id. */
function repeatedSlashes(req: http.IncomingMessage) {
  const [pathname, ...query] = (req.url ?? "/").split("?");
  if (!pathname.startsWith("/api") || !pathname.includes("//")) return undefined;
  const target = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  const search = query.length ? `?${query.join("?")}` : "";
  return new Response(null, {
    status: 308,
    headers: { Location: `${target}${search}`, "X-Request-Id": newRequestId() },
  });
}

function forbiddenMethod(req: http.IncomingMessage) {
  const pathname = (req.url ?? "/").split("?")[0];
  const allow = (isApi(pathname) ? apiRouteFor(pathname)?.allow : undefined) ?? ["GET", "HEAD"];
  return errorResponse(
    "method_not_allowed",
    `${req.method} is not answered here. Use ${allow.join(", ")}.`,
    newRequestId(),
    undefined,
    { headers: { Allow: allow.join(", ") } },
  );
}

/**
 * A declared Content-Length over the operation's limit: 413 from here, before Next copies a byte of the body
 * (it cannot be done later: Next hides Content-Length from the proxy and reads the body before the route).
 */
function declaredTooLarge(req: http.IncomingMessage) {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!Number.isFinite(declared) || declared <= 0) return undefined;
  const pathname = (req.url ?? "/").split("?")[0];
  if (!isApi(pathname)) return undefined;
  const limit = apiRouteFor(pathname)?.bodyLimit(req.method ?? "");
  if (limit === undefined || declared <= limit) return undefined;
  const error = payloadTooLarge(limit);
  return errorResponse(error.code, error.message, newRequestId(), undefined, error);
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
  const headers = Object.fromEntries(response.headers);
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
  // Whatever body the client still sends is discarded as it arrives (never held).
  req.resume();
}
