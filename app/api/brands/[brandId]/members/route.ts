import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { brandParams } from "@/lib/contracts/brands";
import { listMembers as operation } from "@/lib/contracts/teams";
import { listMembers } from "@/lib/teams/members";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, brandParams);
    return Response.json(await listMembers({ principal, brandId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: operation.id },
);
