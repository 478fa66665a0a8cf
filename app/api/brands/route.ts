import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { toBrandResponse } from "@/lib/brands/brand-response";
import { createBrand } from "@/lib/brands/create-brand";
import { listBrands } from "@/lib/brands/list-brands";
import * as contract from "@/lib/contracts/brands";
import { operationUrl } from "@/lib/contracts/operation";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal }) => {
    const brands = await listBrands({ principal });
    return Response.json(
      { items: await Promise.all(brands.map(({ brand, role }) => toBrandResponse(brand, role))) },
      { headers: { "Cache-Control": "no-store" } },
    );
  }),
  { docId: contract.listBrands.id },
);

export const POST = withApi(
  withAuth(async (req, { principal }) => {
    const input = await readJson(req, contract.createBrandBody);
    const brand = await createBrand({ principal, input });
    return Response.json(await toBrandResponse(brand, "owner"), {
      status: 201,
      headers: { Location: operationUrl(contract.getBrand.path, { brandId: brand.id }) },
    });
  }),
  { docId: contract.createBrand.id },
);
