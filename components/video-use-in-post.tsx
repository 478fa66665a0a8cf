"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button, ErrorNotice } from "@/components/ui";
import { callApi } from "@/lib/client/api-client";
import { updatePost } from "@/lib/contracts/posts";

/** Puts the finished video into its post (PATCH videoUrl), then opens the post in the editor. */
export function UseInPostButton({ postId, videoUrl }: { postId: string; videoUrl: string }) {
  const router = useRouter();
  const attach = useMutation({
    mutationFn: () => callApi(updatePost, { params: { postId }, body: { videoUrl } }),
    onSuccess: () => router.push(`/studio/${postId}`),
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
