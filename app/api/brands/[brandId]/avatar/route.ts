import { withApi } from "@/lib/api/handler";
import { AVATAR_POLL_SECONDS } from "@/lib/avatars/avatar-training";
import { readAvatarFile } from "@/lib/avatars/avatar-upload-request";
import { uploadAvatar } from "@/lib/avatars/upload-avatar";
import { toBrandResponse } from "@/lib/brands/brand-response";
import * as contract from "@/lib/contracts/brands";
import { operationUrl } from "@/lib/contracts/operation";

export const dynamic = "force-dynamic";

export const POST = withApi(contract.uploadAvatar, async ({ req, principal, params: { brandId } }) => {
  const file = await readAvatarFile(req);
  const { brand, role } = await uploadAvatar({ principal, brandId, file });
  const location = operationUrl(contract.getBrand.path, { brandId });
  const headers = { Location: location, "Retry-After": String(AVATAR_POLL_SECONDS) };
  return Response.json(await toBrandResponse(brand, role), { status: 202, headers });
});
