import { ApiError } from "@/lib/errors/api-error";
import { withApi } from "@/lib/api/handler";
import { enforceRateLimit, rateLimitSubject } from "@/lib/api/rate-limit";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { generatePostBody, generatePostStream } from "@/lib/contracts/posts";
import { streamPostDraft } from "@/lib/posts/stream-post-draft";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, requestId }) => {
    const input = await readJson(req, generatePostBody);
    if (req.headers.has("idempotency-key")) {
      throw new ApiError(
        "invalid_request",
        "Idempotency-Key applies to the JSON answer only (POST /api/content/create); leave it out here.",
        { details: [{ path: "Idempotency-Key", message: "Not accepted by the streamed operation." }] },
      );
    }
    const limitHeaders = await enforceRateLimit({ bucket: "generate", subject: rateLimitSubject(principal) });
    return streamPostDraft({ principal, input, requestId, signal: req.signal, headers: limitHeaders });
  }),
  { docId: generatePostStream.id },
);
