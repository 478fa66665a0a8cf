import type { NextRequest } from "next/server";

/** next-auth's actions (`/api/auth/<action>/…`); any other path is one label, so a scan cannot add series. */
const AUTH_ACTIONS = new Set([
  "signin",
  "signout",
  "callback",
  "session",
  "csrf",
  "providers",
  "error",
  "_log",
]);

/** The operation name of a next-auth request for its span and metrics: `auth-signin`, `auth-session`, … */
export function authOperation(req: NextRequest) {
  const action = req.nextUrl.pathname.split("/")[3] ?? "";
  return `auth-${AUTH_ACTIONS.has(action) ? action.replace(/^_/, "") : "other"}`;
}
