import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { invitationParams, revokeInvitation as operation } from "@/lib/contracts/teams";
import { revokeInvitation } from "@/lib/teams/revoke";

export const dynamic = "force-dynamic";

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId, invitationId } = readParams(params, invitationParams);
    return Response.json(await revokeInvitation({ principal, brandId, invitationId }));
  }),
  { docId: operation.id },
);
