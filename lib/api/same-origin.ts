import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { publicOrigin } from "./public-origin";

/**
 * Refuses a request a browser sent from another site: `Sec-Fetch-Site` (which a page cannot forge) must be
 * `same-origin` when the browser sends it, and an `Origin` header must be the app's own. A client that is no
 * browser sends neither and is judged by its bearer token alone.
 */
export function assertSameOrigin(req: Request) {
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const own = [publicOrigin(req), new URL(req.url).origin];
  if ((site && site !== "same-origin") || (origin && !own.includes(origin))) {
    throw new ApiError(
      "cross_site_request",
      "This request came from another site. Start it from the app's own page.",
      { details: { secFetchSite: site, origin } },
    );
  }
}
