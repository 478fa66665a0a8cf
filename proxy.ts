import { type NextRequest, NextResponse } from "next/server";
import { badPathEncoding, isWellEncoded } from "@/lib/api/api-gate";
import { baseSecurityHeaders, contentSecurityPolicy, newNonce } from "@/lib/security/security-headers";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const APP_PAGES = /^\/(studio|brands|videos|settings)(\/|$)/;
/** Prerendered at build time (app/api-docs: `dynamic = "error"`): no per-request HTML to carry a nonce. */
const PRERENDERED = /^\/api-docs(\/|$)/;

/**
 * Pages and media only: /api never reaches the proxy, because the HTTP server runs the API gate before Next
 * (lib/server/http-guard.ts) at a fraction of a middleware call's cost. App pages need a signed-in user:
 * without a session cookie the visitor goes to /login and comes back afterwards; the (app) layout checks the
 * session itself too, and reads the path from x-pathname. Next's own trailing-slash redirect is off
 * (next.config.mjs) so the gate can give /api redirects their X-Request-Id; pages get the same 308 here.
 *
 * Every answer it passes or gives carries the security headers (lib/security/security-headers.ts), and every
 * page its Content-Security-Policy with a fresh nonce: set on the request too, where Next reads it to put the
 * nonce on its own inline scripts (the pages render per request for this; the prerendered API docs cannot).
 */
export function proxy(request: NextRequest) {
  const csp = contentSecurityPolicy(PRERENDERED.test(request.nextUrl.pathname) ? undefined : newNonce());
  const response = route(request, csp);
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(baseSecurityHeaders())) response.headers.set(name, value);
  return response;
}

function route(request: NextRequest, csp: string): Response {
  const { pathname, search } = request.nextUrl;
  if (!isWellEncoded(pathname)) return badPathEncoding();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return NextResponse.redirect(
      new URL(`${pathname.replace(/\/+$/, "") || "/"}${search}`, request.url),
      308,
    );
  }
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", csp);
  if (!APP_PAGES.test(pathname)) return NextResponse.next({ request: { headers } });
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!hasSession) {
    const login = new URL("/login", request.url);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(login);
  }
  headers.set("x-pathname", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Every path but /api (gated by the HTTP server) and Next's static assets.
  matcher: ["/((?!api(?:/|$)|_next/static|_next/image|favicon.ico).*)"],
};
