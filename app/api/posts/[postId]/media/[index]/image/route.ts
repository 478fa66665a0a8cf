import { withApi } from "@/lib/api/handler";
import { readUploadFile } from "@/lib/api/read-upload";
import { KIT_UPLOAD_FIELD, MEDIA_IMAGE_LIMITS } from "@/lib/contracts/brand-kit-rules";
import * as contract from "@/lib/contracts/posts";
import { deleteItemImage, uploadItemImage } from "@/lib/posts/media-images";

export const dynamic = "force-dynamic";

const UPLOAD = { field: KIT_UPLOAD_FIELD, maxBytes: MEDIA_IMAGE_LIMITS.maxBytes, what: "The image" };

export const POST = withApi(contract.uploadMediaImage, async ({ req, principal, params }) => {
  const { bytes } = await readUploadFile(req, UPLOAD);
  return Response.json(await uploadItemImage({ principal, ...params, file: bytes }));
});

export const DELETE = withApi(contract.deleteMediaImage, async ({ principal, params }) =>
  Response.json(await deleteItemImage({ principal, ...params })),
);
