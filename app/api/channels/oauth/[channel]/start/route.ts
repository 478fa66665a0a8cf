import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { readQuery } from "@/lib/api/read-request";
import { browserPrincipal } from "@/lib/auth/browser-principal";
import { listChannelsQuery } from "@/lib/contracts/publishing";
import { oauthChannel, startOAuth } from "@/lib/publishing/oauth-connect";

export const dynamic = "force-dynamic";

/** Sends the browser to the platform's authorize page (302) with a signed state; see oauth-connect.ts. */
export const GET = withApi(
  async (req, { params }) => {
    const principal = await browserPrincipal(req);
    const channel = oauthChannel(String(params.channel ?? ""));
    const { brandId } = readQuery(req, listChannelsQuery);
    const location = await startOAuth({ principal, channel, brandId, origin: publicOrigin(req) });
    return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
  },
  { operation: "oauth-start" },
);
