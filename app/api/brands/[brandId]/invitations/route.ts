import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { createInvitation as createOperation, listInvitations as listOperation } from "@/lib/contracts/teams";
import { createInvitation, listInvitations } from "@/lib/teams/invite";

export const dynamic = "force-dynamic";

export const GET = withApi(listOperation, async ({ principal, params: { brandId } }) =>
  Response.json(await listInvitations({ principal, brandId }), { headers: { "Cache-Control": "no-store" } }),
);

export const POST = withApi(createOperation, async ({ req, principal, params: { brandId }, body }) => {
  const origin = publicOrigin(req);
  const { invitation, created, limitHeaders } = await createInvitation({
    principal,
    brandId,
    ...body,
    origin,
  });
  const headers = { "Cache-Control": "no-store", ...limitHeaders };
  return Response.json(invitation, { status: created ? 201 : 200, headers });
});
