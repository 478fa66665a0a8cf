import { withApi } from "@/lib/api/handler";
import { receiveProviderWebhook } from "@/lib/video/providers/receive-provider-webhook";

/** Provider callbacks (HeyGen, D-ID): public, and only a hint to poll now; see receive-provider-webhook.ts. */
export const POST = withApi(
  async (req, { params }) =>
    Response.json(await receiveProviderWebhook(String(params.provider ?? ""), req), { status: 202 }),
  { operation: "provider-webhook" },
);
