import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import * as contract from "@/lib/contracts/posts";
import { generateItemImage } from "@/lib/posts/media-images";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId, index } = readParams(params, contract.mediaItemParams);
    return Response.json(await generateItemImage({ principal, postId, index }));
  }),
  { docId: contract.generateMediaImage.id },
);
