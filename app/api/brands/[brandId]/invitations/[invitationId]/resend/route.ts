import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { invitationParams, resendInvitation as operation } from "@/lib/contracts/teams";
import { resendInvitation } from "@/lib/teams/resend";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId, invitationId } = readParams(params, invitationParams);
    const origin = publicOrigin(req);
    const { invitation, limitHeaders } = await resendInvitation({ principal, brandId, invitationId, origin });
    return Response.json(invitation, { headers: { "Cache-Control": "no-store", ...limitHeaders } });
  }),
  { docId: operation.id },
);
