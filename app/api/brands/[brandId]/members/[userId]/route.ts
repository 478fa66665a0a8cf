import { withApi } from "@/lib/api/handler";
import { removeMember as removeOperation, updateMember as updateOperation } from "@/lib/contracts/teams";
import { removeMember, updateMemberRole } from "@/lib/teams/members";

export const dynamic = "force-dynamic";

export const PATCH = withApi(updateOperation, async ({ principal, params, body: { role } }) =>
  Response.json(await updateMemberRole({ principal, ...params, role })),
);

export const DELETE = withApi(removeOperation, async ({ principal, params }) => {
  await removeMember({ principal, ...params });
  return new Response(null, { status: 204 });
});
