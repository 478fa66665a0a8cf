import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { invitationTokenParams, acceptInvitation as operation } from "@/lib/contracts/teams";
import { acceptInvitation } from "@/lib/teams/accept";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { token } = readParams(params, invitationTokenParams);
    return Response.json(await acceptInvitation({ principal, token }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: operation.id },
);
