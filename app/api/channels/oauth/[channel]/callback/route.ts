import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { browserPrincipal } from "@/lib/auth/browser-principal";
import { finishOAuth, oauthChannel } from "@/lib/publishing/oauth-connect";

export const dynamic = "force-dynamic";

/** Where the platform sends the browser back; on success a 303 to the brand's settings. See oauth-connect.ts. */
export const GET = withApi(
  async (req, { params }) => {
    const principal = await browserPrincipal(req);
    const channel = oauthChannel(String(params.channel ?? ""));
    const { brandId, channelId } = await finishOAuth({
      principal,
      channel,
      params: new URL(req.url).searchParams,
      origin: publicOrigin(req),
    });
    return new Response(null, {
      status: 303,
      headers: { Location: `/brands/${brandId}?connected=${channelId}`, "Cache-Control": "no-store" },
    });
  },
  { operation: "oauth-callback" },
);
