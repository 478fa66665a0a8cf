import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { AVATAR_POLL_SECONDS } from "@/lib/avatars/avatar-training";
import { readAvatarFile } from "@/lib/avatars/avatar-upload-request";
import { uploadAvatar } from "@/lib/avatars/upload-avatar";
import { toBrandResponse } from "@/lib/brands/brand-response";
import * as contract from "@/lib/contracts/brands";
import { operationUrl } from "@/lib/contracts/operation";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, contract.brandParams);
    const file = await readAvatarFile(req);
    const { brand, role } = await uploadAvatar({ principal, brandId, file });
    return Response.json(await toBrandResponse(brand, role), {
      status: 202,
      headers: {
        Location: operationUrl(contract.getBrand.path, { brandId }),
        "Retry-After": String(AVATAR_POLL_SECONDS),
      },
    });
  }),
  { docId: contract.uploadAvatar.id },
);
