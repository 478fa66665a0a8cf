import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { previewInvitation } from "@/lib/brands/invitations";
import { invitationTokenParams, getInvitation as operation } from "@/lib/contracts/teams";

export const dynamic = "force-dynamic";

export const GET = withApi(
  async (_req, { params }) => {
    const { token } = readParams(params, invitationTokenParams);
    return Response.json(await previewInvitation(token), { headers: { "Cache-Control": "no-store" } });
  },
  { docId: operation.id },
);
