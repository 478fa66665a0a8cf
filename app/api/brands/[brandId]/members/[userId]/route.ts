import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  memberParams,
  removeMember as removeOperation,
  updateMemberBody,
  updateMember as updateOperation,
} from "@/lib/contracts/teams";
import { removeMember, updateMemberRole } from "@/lib/teams/members";

export const dynamic = "force-dynamic";

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId, userId } = readParams(params, memberParams);
    const { role } = await readJson(req, updateMemberBody);
    return Response.json(await updateMemberRole({ principal, brandId, userId, role }));
  }),
  { docId: updateOperation.id },
);

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId, userId } = readParams(params, memberParams);
    await removeMember({ principal, brandId, userId });
    return new Response(null, { status: 204 });
  }),
  { docId: removeOperation.id },
);
