import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { browserPrincipal } from "@/lib/auth/browser-principal";
import { choiceCookie, sealChoice } from "@/lib/publishing/oauth-choice";
import { finishOAuth, oauthChannel } from "@/lib/publishing/oauth-connect";

export const dynamic = "force-dynamic";

/**
 * Where the platform sends the browser back; on success a 303 to the brand's settings, or, when LinkedIn
 * found company pages, to the brand's page that lets the owner choose which accounts to add. See
 * oauth-connect.ts and oauth-choice.ts.
 */
export const GET = withApi(
  async (req, { params }) => {
    const principal = await browserPrincipal(req);
    const channel = oauthChannel(String(params.channel ?? ""));
    const origin = publicOrigin(req);
    const done = await finishOAuth({ principal, channel, params: new URL(req.url).searchParams, origin });
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (done.choice) {
      headers.set("Location", `/brands/${done.brandId}/connect/linkedin`);
      headers.append("Set-Cookie", choiceCookie(sealChoice(principal, done.brandId, done.choice), origin));
    } else {
      headers.set("Location", `/brands/${done.brandId}?connected=${done.channelId}`);
    }
    return new Response(null, { status: 303, headers });
  },
  { operation: "oauth-callback" },
);
