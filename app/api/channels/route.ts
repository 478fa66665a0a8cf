import { withApi } from "@/lib/api/handler";
import { readJson, readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  connectChannel,
  connectChannelBody,
  listChannels,
  listChannelsQuery,
} from "@/lib/contracts/publishing";
import { listChannels as listBrandChannels } from "@/lib/publishing/channels";
import { connectChannel as connect } from "@/lib/publishing/connect-channel";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal }) => {
    const { brandId } = readQuery(req, listChannelsQuery);
    return Response.json(await listBrandChannels({ principal, brandId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: listChannels.id },
);

export const POST = withApi(
  withAuth(async (req, { principal }) => {
    const input = await readJson(req, connectChannelBody);
    const channel = await connect({ principal, input });
    return Response.json(channel, { status: 201, headers: { "Cache-Control": "no-store" } });
  }),
  { docId: connectChannel.id },
);
