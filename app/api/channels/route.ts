import { withApi } from "@/lib/api/handler";
import { connectChannel, listChannels } from "@/lib/contracts/publishing";
import { listChannels as listBrandChannels } from "@/lib/publishing/channels";
import { connectChannel as connect } from "@/lib/publishing/connect-channel";

export const dynamic = "force-dynamic";

export const GET = withApi(listChannels, async ({ principal, query: { brandId } }) =>
  Response.json(await listBrandChannels({ principal, brandId }), {
    headers: { "Cache-Control": "no-store" },
  }),
);

export const POST = withApi(connectChannel, async ({ principal, body: input }) => {
  const channel = await connect({ principal, input });
  return Response.json(channel, { status: 201, headers: { "Cache-Control": "no-store" } });
});
