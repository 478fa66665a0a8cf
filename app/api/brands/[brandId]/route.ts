import { withApi } from "@/lib/api/handler";
import { toBrandResponse } from "@/lib/brands/brand-response";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import * as contract from "@/lib/contracts/brands";

export const dynamic = "force-dynamic";

export const GET = withApi(contract.getBrand, async ({ principal, params: { brandId } }) => {
  const brand = await getBrandForPrincipal({ principal, brandId, permission: "brand.read" });
  return Response.json(await toBrandResponse(brand, brand.role), {
    headers: { "Cache-Control": "no-store" },
  });
});

export const PATCH = withApi(
  contract.updateBrand,
  async ({ principal, params: { brandId }, body: input }) => {
    const { brand, role } = await updateBrand({ principal, brandId, input });
    return Response.json(await toBrandResponse(brand, role));
  },
);
