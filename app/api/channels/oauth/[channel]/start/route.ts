import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { readJson, readQuery } from "@/lib/api/read-request";
import { assertSameOrigin } from "@/lib/api/same-origin";
import { withAuth } from "@/lib/api/with-auth";
import { authenticate } from "@/lib/auth/authenticate";
import { listChannelsQuery } from "@/lib/contracts/publishing";
import { oauthChannel, startOAuth } from "@/lib/publishing/oauth-connect";

export const dynamic = "force-dynamic";

/**
 * POST (the brand page's Connect button, with the session's access token, same-origin only): answers the
 * platform's authorize URL with a signed state, where the page then goes. See oauth-connect.ts.
 */
export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    assertSameOrigin(req);
    const channel = oauthChannel(String(params.channel ?? ""));
    const { brandId } = await readJson(req, listChannelsQuery);
    const authorizeUrl = await startOAuth({ principal, channel, brandId, origin: publicOrigin(req) });
    return Response.json({ authorizeUrl }, { headers: { "Cache-Control": "no-store" } });
  }),
  { operation: "oauth-start" },
);

/**
 * GET: with a bearer token (an API client), a 302 to the platform. A browser with only its session cookie
 * (a link, perhaps on another site) connects nothing: it is sent to the brand's page, where connecting is a
 * deliberate click.
 */
export const GET = withApi(
  async (req, { params }) => {
    const channel = oauthChannel(String(params.channel ?? ""));
    const { brandId } = readQuery(req, listChannelsQuery);
    const principal = await authenticate(req.headers.get("authorization"));
    const location = principal
      ? await startOAuth({ principal, channel, brandId, origin: publicOrigin(req) })
      : `/brands/${brandId}?connect=${channel}`;
    return new Response(null, {
      status: principal ? 302 : 303,
      headers: { Location: location, "Cache-Control": "no-store" },
    });
  },
  { operation: "oauth-start" },
);
