"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { Card } from "@/components/ui/primitives";
import { brandQueries, postQueries } from "@/lib/client/queries";
import { can } from "@/lib/contracts/permissions";

// Only a published post has results: their panel (and its charts) loads then, not with the studio.
const PostResults = dynamic(() => import("./post-results").then((results) => results.PostResults), {
  loading: () => (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Results</h2>
      <p role="status" className="text-sm text-slate-600">
        Loading results…
      </p>
    </Card>
  ),
});

/** The studio's results card: shown once the post is published; owners may refresh. */
export function StudioResults({ postId }: { postId: string }) {
  const post = useQuery(postQueries.detail(postId));
  const brand = useQuery({ ...brandQueries.detail(post.data?.brandId ?? ""), enabled: Boolean(post.data) });
  if (post.data?.status !== "published") return null;
  return (
    <PostResults
      postId={postId}
      canRefresh={brand.data ? can(brand.data.role, "publication.create") : false}
    />
  );
}
