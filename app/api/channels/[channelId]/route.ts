import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  channelParams,
  disconnectChannel,
  updateChannel,
  updateChannelBody,
} from "@/lib/contracts/publishing";
import { disconnectChannel as disconnect, updateChannelLanguage } from "@/lib/publishing/channels";

export const dynamic = "force-dynamic";

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { channelId } = readParams(params, channelParams);
    await disconnect({ principal, channelId });
    return new Response(null, { status: 204 });
  }),
  { docId: disconnectChannel.id },
);

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { channelId } = readParams(params, channelParams);
    const { language } = await readJson(req, updateChannelBody);
    const channel = await updateChannelLanguage({ principal, channelId, language });
    return Response.json(channel, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: updateChannel.id },
);
