import { withApi } from "@/lib/api/handler";
import { readParams, readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { listActivity } from "@/lib/brands/list-activity";
import { listActivityQuery, listActivity as operation } from "@/lib/contracts/activity";
import { brandParams } from "@/lib/contracts/brands";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, brandParams);
    const query = readQuery(req, listActivityQuery);
    return Response.json(await listActivity({ principal, brandId, ...query }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: operation.id },
);
