"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { generateMediaImage } from "@/lib/client/operations";
import { postChanged, postQueries } from "@/lib/client/queries";

/**
 * Before publishing: the media plan's image items that have no image are not sent (the post goes out
 * without them, or as text). Says which, and offers to generate them first. Generating changes the post, so
 * on a brand that requires approval it goes back to review.
 */
export function MissingImagesNotice({ postId }: { postId: string }) {
  const queryClient = useQueryClient();
  const post = useQuery(postQueries.detail(postId));
  // A post with a video sends the video (never the plan's images), so no image is missing then.
  const missing =
    post.data && !post.data.videoUrl
      ? post.data.mediaPlan.items.flatMap((item, index) =>
          item.type === "image" && !item.imageUrl ? [index] : [],
        )
      : [];
  const generate = useMutation({
    mutationFn: async () => {
      for (const index of missing) {
        const { data } = await callApi(generateMediaImage, { params: { postId, index: String(index) } });
        postChanged(queryClient, data);
      }
    },
  });
  if (missing.length === 0) return null;
  const names = missing.map((index) => index + 1).join(", ");
  return (
    <div
      role="note"
      className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="missing-images"
    >
      <p>
        {missing.length === 1 ? `Image ${names}` : `Images ${names}`} of the media plan{" "}
        {missing.length === 1 ? "has" : "have"} no picture yet, so{" "}
        {missing.length === 1 ? "it is" : "they are"} not sent. Generate{" "}
        {missing.length === 1 ? "it" : "them"} first, or publish without{" "}
        {missing.length === 1 ? "it" : "them"}.
      </p>
      <Button variant="secondary" onClick={() => generate.mutate()} disabled={generate.isPending}>
        {generate.isPending ? "Generating…" : missing.length === 1 ? "Generate it" : "Generate them"}
      </Button>
      {generate.error && <ErrorNotice message={generate.error.message} />}
    </div>
  );
}
