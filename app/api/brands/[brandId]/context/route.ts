import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { toBrandContext } from "@/lib/brands/brand-response";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import * as contract from "@/lib/contracts/brands";
import { examplesPrompts } from "@/lib/posts/learn-from-results";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const brand = await getBrandForPrincipal({ principal, brandId, permission: "brand.read" });
    return Response.json(toBrandContext(brand, await examplesPrompts(brand)), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: contract.brandContext.id },
);
