import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { channelParams, disconnectChannel } from "@/lib/contracts/publishing";
import { disconnectChannel as disconnect } from "@/lib/publishing/channels";

export const dynamic = "force-dynamic";

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { channelId } = readParams(params, channelParams);
    await disconnect({ principal, channelId });
    return new Response(null, { status: 204 });
  }),
  { docId: disconnectChannel.id },
);
