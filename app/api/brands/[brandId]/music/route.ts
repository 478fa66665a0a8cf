import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { readUploadFile } from "@/lib/api/read-upload";
import { withAuth } from "@/lib/api/with-auth";
import { deleteBrandKitFile, uploadBrandMusic } from "@/lib/brands/brand-kit-files";
import { toBrandResponse } from "@/lib/brands/brand-response";
import * as contract from "@/lib/contracts/brands";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const { bytes } = await readUploadFile(req, {
      field: contract.KIT_UPLOAD_FIELD,
      maxBytes: contract.MUSIC_LIMITS.maxBytes,
      what: "The music track",
    });
    const { brand, role } = await uploadBrandMusic({ principal, brandId, file: bytes });
    return Response.json(await toBrandResponse(brand, role));
  }),
  { docId: contract.uploadMusic.id },
);

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const { brand, role } = await deleteBrandKitFile({ principal, brandId, kind: "music" });
    return Response.json(await toBrandResponse(brand, role));
  }),
  { docId: contract.deleteMusic.id },
);
