import { withApi } from "@/lib/api/handler";
import { enforceRateLimit, rateLimitSubject } from "@/lib/api/rate-limit";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import * as contract from "@/lib/contracts/posts";
import { generateItemImage } from "@/lib/posts/media-images";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId, index } = readParams(params, contract.mediaItemParams);
    // Each call may be a paid image-model call: counted per credential before any work is done.
    const limitHeaders = await enforceRateLimit({ bucket: "image", subject: rateLimitSubject(principal) });
    return Response.json(await generateItemImage({ principal, postId, index }), { headers: limitHeaders });
  }),
  { docId: contract.generateMediaImage.id },
);
