import "server-only";
import { getEnv } from "@/lib/config";

/** A Host header's value: a name or an IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin for links that leave the app (an invitation link, an OAuth callback): APP_URL when set (a proxy's public name);
 * otherwise the host the request was sent to (its Host header), with the scheme Next gives `req.url` (https
 * only when X-Forwarded-Proto says so, Next's own rule). `req.url`'s host is not used: Next builds it from
 * the name the server listens on (`localhost`), not the one the browser used. X-Forwarded-Host is not
 * trusted, as nothing else here trusts it; behind a proxy that rewrites Host, set APP_URL.
 */
export function publicOrigin(req: Request): string {
  const appUrl = getEnv().APP_URL;
  if (appUrl) return appUrl;
  const requested = new URL(req.url);
  const host = req.headers.get("host");
  return host && HOST.test(host) ? new URL(`${requested.protocol}//${host}`).origin : requested.origin;
}
