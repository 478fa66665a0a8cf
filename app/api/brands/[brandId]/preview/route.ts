import { withApi } from "@/lib/api/handler";
import { readParams, readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import * as contract from "@/lib/contracts/brands";
import { brandPreviewFrame } from "@/lib/video/brand-preview";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const query = readQuery(req, contract.brandPreviewQuery);
    const frame = await brandPreviewFrame({ principal, brandId, ...query });
    return Response.json(frame, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: contract.brandPreview.id },
);
