import { withApi } from "@/lib/api/handler";
import { disconnectChannel, updateChannel } from "@/lib/contracts/publishing";
import { disconnectChannel as disconnect, updateChannelLanguage } from "@/lib/publishing/channels";

export const dynamic = "force-dynamic";

export const DELETE = withApi(disconnectChannel, async ({ principal, params: { channelId } }) => {
  await disconnect({ principal, channelId });
  return new Response(null, { status: 204 });
});

export const PATCH = withApi(
  updateChannel,
  async ({ principal, params: { channelId }, body: { language } }) => {
    const channel = await updateChannelLanguage({ principal, channelId, language });
    return Response.json(channel, { headers: { "Cache-Control": "no-store" } });
  },
);
