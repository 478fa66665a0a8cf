import { withApi } from "@/lib/api/handler";
import { toBrandResponse } from "@/lib/brands/brand-response";
import { createBrand } from "@/lib/brands/create-brand";
import { listBrands } from "@/lib/brands/list-brands";
import * as contract from "@/lib/contracts/brands";
import { operationUrl } from "@/lib/contracts/operation";

export const dynamic = "force-dynamic";

export const GET = withApi(contract.listBrands, async ({ principal }) => {
  const brands = await listBrands({ principal });
  const items = await Promise.all(brands.map(({ brand, role }) => toBrandResponse(brand, role)));
  return Response.json({ items }, { headers: { "Cache-Control": "no-store" } });
});

export const POST = withApi(contract.createBrand, async ({ principal, body: input }) => {
  const brand = await createBrand({ principal, input });
  const headers = { Location: operationUrl(contract.getBrand.path, { brandId: brand.id }) };
  return Response.json(await toBrandResponse(brand, "owner"), { status: 201, headers });
});
