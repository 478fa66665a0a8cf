import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { toBrandResponse } from "@/lib/brands/brand-response";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import * as contract from "@/lib/contracts/brands";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const brand = await getBrandForPrincipal({ principal, brandId, permission: "brand.read" });
    return Response.json(await toBrandResponse(brand, brand.role), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: contract.getBrand.id },
);

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const input = await readJson(req, contract.updateBrandBody);
    const { brand, role } = await updateBrand({ principal, brandId, input });
    return Response.json(await toBrandResponse(brand, role));
  }),
  { docId: contract.updateBrand.id },
);
