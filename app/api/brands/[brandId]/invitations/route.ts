import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { brandParams } from "@/lib/contracts/brands";
import {
  createInvitationBody,
  createInvitation as createOperation,
  listInvitations as listOperation,
} from "@/lib/contracts/teams";
import { createInvitation, listInvitations } from "@/lib/teams/invite";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, brandParams);
    return Response.json(await listInvitations({ principal, brandId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: listOperation.id },
);

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, brandParams);
    const { email, role } = await readJson(req, createInvitationBody);
    const origin = publicOrigin(req);
    const { invitation, created, limitHeaders } = await createInvitation({
      principal,
      brandId,
      email,
      role,
      origin,
    });
    return Response.json(invitation, {
      status: created ? 201 : 200,
      headers: { "Cache-Control": "no-store", ...limitHeaders },
    });
  }),
  { docId: createOperation.id },
);
