"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { updatePost } from "@/lib/client/operations";
import { postChanged } from "@/lib/client/queries";

/** Puts the finished video into its post (PATCH videoUrl), then opens the post in the editor. */
export function UseInPostButton({ postId, videoUrl }: { postId: string; videoUrl: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const attach = useMutation({
    mutationFn: async () => (await callApi(updatePost, { params: { postId }, body: { videoUrl } })).data,
    onSuccess: (post) => {
      postChanged(queryClient, post);
      router.push(`/studio/${postId}`);
    },
  });
  return (
    <>
      <Button onClick={() => attach.mutate()} disabled={attach.isPending || attach.isSuccess}>
        {attach.isPending ? "Adding to the post…" : attach.isSuccess ? "Opening the post…" : "Use in post"}
      </Button>
      {attach.error && (
        <div className="basis-full">
          <ErrorNotice message={attach.error.message} onRetry={() => attach.mutate()} />
        </div>
      )}
    </>
  );
}
