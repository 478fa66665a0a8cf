import http from "node:http";
import { apiRouteFor } from "@/lib/api/api-routes";
import { errorResponse } from "@/lib/api/handler";
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
 *   path does not serve.
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
        void answer(req, res);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const pathname = (req.url ?? "/").split("?")[0];
  const allow = (pathname === "/api" || pathname.startsWith("/api/")
    ? apiRouteFor(pathname)?.allow
    : undefined) ?? ["GET", "HEAD"];
  const response = errorResponse(
    "method_not_allowed",
    `${req.method} is not answered here. Use ${allow.join(", ")}.`,
    newRequestId(),
    undefined,
    { headers: { Allow: allow.join(", ") } },
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
  req.resume();
}
