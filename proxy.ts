import { type NextRequest, NextResponse } from "next/server";
import { badPathEncoding, isWellEncoded } from "@/lib/api/api-gate";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const APP_PAGES = /^\/(studio|brands|videos|settings)(\/|$)/;

/**
 * Pages and media only: /api never reaches the proxy, because the HTTP server runs the API gate before Next
 * (lib/server/http-guard.ts) at a fraction of a middleware call's cost. App pages need a signed-in user:
 * without a session cookie the visitor goes to /login and comes back afterwards; the (app) layout checks the
 * session itself too, and reads the path from x-pathname. Next's own trailing-slash redirect is off
 * (next.config.ts) so the gate can give /api redirects their X-Request-Id; pages get the same 308 here.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!isWellEncoded(pathname)) return badPathEncoding();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return NextResponse.redirect(
      new URL(`${pathname.replace(/\/+$/, "") || "/"}${search}`, request.url),
      308,
    );
  }
  if (!APP_PAGES.test(pathname)) return NextResponse.next();
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!hasSession) {
    const login = new URL("/login", request.url);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(login);
  }
  const headers = new Headers(request.headers);
  headers.set("x-pathname", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Every path but /api (gated by the HTTP server) and Next's static assets.
  matcher: ["/((?!api(?:/|$)|_next/static|_next/image|favicon.ico).*)"],
};
