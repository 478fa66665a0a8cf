import { errorResponse } from "@/lib/api/handler";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import {
  type GeneratePostInput,
  generatePostStream,
  POST_STREAM_CONTENT_TYPE,
  type PostStreamEvent,
} from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { checkBrief, savePostDrafts, writePostDraft } from "./generate-post-draft";
import { throttleLatest } from "./partial-throttle";
import { DraftCanceledError, partialDraft } from "./write-draft";

async function errorEvent(error: unknown, requestId: string): Promise<PostStreamEvent> {
  const response =
    error instanceof ApiError
      ? errorResponse(error.code, error.message, requestId, generatePostStream.id, error)
      : errorResponse(
          "internal_error",
          "Something went wrong on our side. Try again.",
          requestId,
          generatePostStream.id,
        );
  const body = (await response.json()) as { error: Extract<PostStreamEvent, { type: "error" }>["error"] };
  return { type: "error", error: body.error };
}

/**
 * Generate post, streamed. The brand, brief length, brand context and brief moderation are checked first, so
 * their errors are ordinary JSON answers. Then the draft streams as NDJSON while the model writes it; the same
 * repair, output moderation and bounded retries apply, and the post is saved once, at the end. When the caller
 * goes away (Cancel), the model call is aborted and nothing is saved.
 */
export async function streamPostDraft({
  principal,
  input,
  requestId,
  signal,
  headers,
}: {
  principal: Principal;
  input: GeneratePostInput;
  requestId: string;
  signal: AbortSignal;
  headers?: Record<string, string>;
}): Promise<Response> {
  const brand = await getBrandForPrincipal({
    principal,
    brandId: input.brandId,
    permission: "post.create",
    cached: true,
  });
  if (input.languages && input.languages.length > 1) {
    throw new ApiError("invalid_request", "The streamed operation writes one language at a time.", {
      details: [
        {
          path: "languages",
          message:
            "Send one language (stream each in turn, with the first post's groupId), or use POST /api/content/create for several at once.",
        },
      ],
    });
  }
  const [language] = await checkBrief({ brand, input, requestId });

  const abort = new AbortController();
  const stop = () => abort.abort();
  signal.addEventListener("abort", stop, { once: true });
  const encoder = new TextEncoder();

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: PostStreamEvent) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      };
      // The text is read as a partial draft only when one goes out.
      const partials = throttleLatest((text: string) => {
        const draft = partialDraft(text);
        if (draft) send({ type: "partial", draft });
      });
      try {
        const draft = await writePostDraft({
          brand,
          input,
          language,
          requestId,
          signal: abort.signal,
          stream: {
            onText: partials.push,
            onRetry: (attempt) => {
              partials.drop();
              send({ type: "retry", attempt });
            },
          },
        });
        partials.flush();
        if (abort.signal.aborted) throw new DraftCanceledError();
        const [post] = await savePostDrafts({ principal, brand, input, drafts: [draft], requestId });
        send({ type: "done", post });
      } catch (error) {
        if (error instanceof DraftCanceledError || abort.signal.aborted) {
          log.info("post_stream_canceled", { requestId, brandId: brand.id });
        } else {
          if (!(error instanceof ApiError)) log.error("post_stream_failed", { requestId, error });
          send(await errorEvent(error, requestId));
        }
      } finally {
        partials.drop();
        signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // Already closed by a canceled reader.
        }
      }
    },
    cancel() {
      stop();
    },
  });

  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": `${POST_STREAM_CONTENT_TYPE}; charset=utf-8`,
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
