import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { readUploadFile } from "@/lib/api/read-upload";
import { withAuth } from "@/lib/api/with-auth";
import { KIT_UPLOAD_FIELD, MEDIA_IMAGE_LIMITS } from "@/lib/contracts/brand-kit-rules";
import * as contract from "@/lib/contracts/posts";
import { deleteItemImage, uploadItemImage } from "@/lib/posts/media-images";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId, index } = readParams(params, contract.mediaItemParams);
    const { bytes } = await readUploadFile(req, {
      field: KIT_UPLOAD_FIELD,
      maxBytes: MEDIA_IMAGE_LIMITS.maxBytes,
      what: "The image",
    });
    return Response.json(await uploadItemImage({ principal, postId, index, file: bytes }));
  }),
  { docId: contract.uploadMediaImage.id },
);

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId, index } = readParams(params, contract.mediaItemParams);
    return Response.json(await deleteItemImage({ principal, postId, index }));
  }),
  { docId: contract.deleteMediaImage.id },
);
