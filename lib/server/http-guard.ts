import http from "node:http";
import { apiGate, isApiPath } from "@/lib/api/api-gate";
import { errorResponse } from "@/lib/api/handler";
import { newRequestId, REQUEST_ID_HEADER } from "@/lib/api/request-id";
import { PEER_HEADER } from "@/lib/auth/client-ip";

/** Methods the fetch standard refuses to build a Request for: Next fails on them before any of our code runs. */
const FORBIDDEN = new Set(["TRACE", "TRACK"]);
const installed = globalThis as unknown as { brandStudioMethodGuard?: boolean };

/**
 * What only the HTTP server can do, installed once per process from the instrumentation hook, before Next
 * sees a request:
 * - stamp each request with its socket's peer address (PEER_HEADER), which route handlers cannot see;
 * - run the API gate (lib/api/api-gate.ts) on every /api request, and give the ones it passes on their
 *   request id (REQUEST_ID_HEADER for the handler, X-Request-Id on the response). Doing this here rather
 *   than in Next's proxy (middleware) saves the proxy's cost on every API call, about as much again as a
 *   trivial route handler;
 * - answer TRACE and TRACK anywhere (Next would crash building the request and answer a text/plain 500):
 *   405 in the error envelope, with `Allow` and `X-Request-Id`, like every other method a path does not serve.
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
      const url = req.url ?? "/";
      const method = req.method ?? "GET";
      if (isApiPath(url.split("?", 1)[0])) {
        const requestId = newRequestId();
        const refused = apiGate({ method, url, contentLength: req.headers["content-length"] }, requestId);
        if (refused) {
          void answer(req, res, refused);
          return true;
        }
        req.headers[REQUEST_ID_HEADER] = requestId;
        res.setHeader("X-Request-Id", requestId);
      } else if (FORBIDDEN.has(method)) {
        void answer(req, res, forbiddenMethod(method));
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

function forbiddenMethod(method: string) {
  const allow = ["GET", "HEAD"];
  return errorResponse(
    "method_not_allowed",
    `${method} is not answered here. Use ${allow.join(", ")}.`,
    newRequestId(),
    undefined,
    { headers: { Allow: allow.join(", ") } },
  );
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
  const headers = Object.fromEntries(response.headers);
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
  // Whatever body the client still sends is discarded as it arrives (never held).
  req.resume();
}
