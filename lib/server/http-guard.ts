import http from "node:http";
import type { Duplex } from "node:stream";
import { apiGate, isApiPath, rawFragment } from "@/lib/api/api-gate";
import { apiRouteFor } from "@/lib/api/api-routes";
import { errorResponse } from "@/lib/api/handler";
import { PEER_HEADER } from "@/lib/auth/client-ip";
import { newRequestId, REQUEST_ID_HEADER } from "@/lib/errors/request-id";
import { baseSecurityHeaders } from "@/lib/security/security-headers";

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
 * - answer a raw `#` in the request target anywhere with 400 in the envelope (Next would cut the path there);
 * - answer TRACE and TRACK anywhere (Next would crash building the request and answer a text/plain 500):
 *   405 in the error envelope, with `Allow` and `X-Request-Id`, like every other method a path does not serve;
 * - answer what Node's HTTP parser refuses before any request exists (a method it does not know, `FOO /api/x`,
 *   or a malformed request line) from the `clientError` event, in the envelope with X-Request-Id, instead of
 *   Node's bare 400 (see answerClientError);
 * - give every response the security headers that need no page (nosniff, Referrer-Policy, …).
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
    if (event === "clientError") {
      const [error, socket] = args as [NodeJS.ErrnoException & { rawPacket?: Buffer }, Duplex];
      if (answerClientError(error, socket)) return true;
    }
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      for (const [name, value] of Object.entries(baseSecurityHeaders())) res.setHeader(name, value);
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
      } else if (url.includes("#")) {
        void answer(req, res, rawFragment());
        return true;
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
  const headers = { ...baseSecurityHeaders(), ...Object.fromEntries(response.headers) };
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
  // Whatever body the client still sends is discarded as it arrives (never held).
  req.resume();
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
};

/**
 * Node's parser rejects a request line it cannot read (an unknown method such as FOO, a bad token) before it
 * builds a request, and by default writes a bare `400` with no body. Here the socket gets the envelope instead:
 * an unknown method on a known /api path is 405 method_not_allowed with `Allow`; on an unknown /api path, 404
 * not_found; anywhere else (or a request line with no method and path) 400 invalid_request. The connection is
 * closed after the answer, as Node does. Errors that are not about the request line (header overflow 431,
 * timeouts 408) keep Node's answer. Returns false when Node should answer.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) {
  if (!socket.writable || !error.code?.startsWith("HPE_") || error.code === "HPE_HEADER_OVERFLOW")
    return false;
  const line = (error.rawPacket?.toString("latin1") ?? "").split("\r\n", 1)[0];
  const [, method, target] = line.match(/^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+)/) ?? [];
  const pathname = target?.split("?", 1)[0];
  const requestId = newRequestId();
  let response: Response;
  if (error.code === "HPE_INVALID_METHOD" && method && pathname?.startsWith("/")) {
    const route = isApiPath(pathname) ? apiRouteFor(pathname) : { allow: ["GET", "HEAD"] };
    response = route
      ? errorResponse(
          "method_not_allowed",
          `${pathname} does not answer ${method.slice(0, 32)}.`,
          requestId,
          undefined,
          {
            headers: { Allow: route.allow.join(", ") },
          },
        )
      : errorResponse("not_found", `No operation at ${pathname.slice(0, 200)}.`, requestId, undefined);
  } else {
    response = errorResponse(
      "invalid_request",
      "The request line or headers could not be parsed.",
      requestId,
      undefined,
    );
  }
  void response.text().then((body) => {
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(baseSecurityHeaders())) headers.set(name, value);
    headers.set("Content-Length", String(Buffer.byteLength(body)));
    headers.set("Connection", "close");
    const head = [`HTTP/1.1 ${response.status} ${STATUS_TEXT[response.status] ?? ""}`];
    for (const [name, value] of headers) head.push(`${name}: ${value}`);
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  });
  return true;
}
