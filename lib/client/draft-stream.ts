"use client";

import { ApiClientError, authorizedFetch, toError } from "@/lib/client/api-client";
import { generatePostStream } from "@/lib/client/operations";
import { POST_STREAM_CONTENT_TYPE } from "@/lib/contracts/post-rules";
import type { GeneratePostInput, PartialDraft, PostView } from "@/lib/contracts/posts";

/**
 * Generate post, streamed (POST /api/content/create/stream, application/x-ndjson): calls onPartial with the draft as it grows and
 * resolves with the saved post. Aborting the signal stops the stream; the server then saves nothing.
 */
export async function streamDraft(
  body: GeneratePostInput,
  {
    signal,
    onPartial,
    onRetry,
  }: { signal: AbortSignal; onPartial: (draft: PartialDraft) => void; onRetry?: () => void },
): Promise<PostView> {
  // The event schema (zod) loads while the request is on its way, not with the page.
  const contract = import("@/lib/contracts/posts");
  contract.catch(() => {});
  const response = await authorizedFetch(generatePostStream.path, {
    method: generatePostStream.method,
    headers: { "content-type": "application/json", accept: POST_STREAM_CONTENT_TYPE },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await toError(response);
  if (!response.body) throw new ApiClientError(502, "generation_failed", "The draft stream was empty.", true);

  const { postStreamEvent } = await contract;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      if (!line) continue;
      const event = postStreamEvent.parse(JSON.parse(line));
      if (event.type === "partial") onPartial(event.draft);
      else if (event.type === "retry") onRetry?.();
      else if (event.type === "done") return event.post;
      else {
        const { code, message, retryable, requestId, details } = event.error;
        throw new ApiClientError(502, code, message, retryable, requestId, details);
      }
    }
    if (done) break;
  }
  throw new ApiClientError(
    502,
    "generation_failed",
    "The draft stream ended before the draft was finished. Nothing was saved; try again.",
    true,
  );
}
